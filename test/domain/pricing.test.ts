/**
 * The pricing of a sales line (domain/catalog/pricing.ts) and the price lists' rules (price-lists.ts), pure:
 * what the client sends wins; else the tariff's or discount group's line valid on the date, at the stretch
 * of the quantity; else the product's. Properties over random lists, dates and quantities, and the stretches'
 * overlap rule checked against a brute-force count.
 */
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from 'decimal.js';
import { salesPriceOf } from '../../domain/catalog/pricing.ts';
import { decidePriceLists, initialPriceListsState, type PriceList, type PriceListHeader, type PriceListLine } from '../../domain/catalog/price-lists.ts';
import { BusinessError } from '../../domain/errors.ts';
import { evolveCatalog, initialCatalogState } from '../../domain/catalog/products.ts';
import { expect, holds } from '../helpers/property.ts';

const PRODUCT_ID = 'p-1';
const product = { code: 'A', name: 'Artículo A', salesUnitPrice: '100.00', firstSalesDiscount: '5.00' };
const at = '2026-01-01T00:00:00.000Z';

function list(type: PriceList['type'], lines: Partial<PriceListLine>[], extra: Partial<PriceList> = {}): PriceList {
  return {
    id: 'l-1', code: 'T1', name: 'Tarifa 1', type, startDate: null, endDate: null, enabled: true, creationDate: at, modificationDate: at, ...extra,
    lines: lines.map((l, i) => ({ id: `line-${i}`, productId: PRODUCT_ID, startDate: null, endDate: null, enabled: true, value: '0', stretchs: [], creationDate: at, modificationDate: at, ...l })),
  };
}
const stretch = (fromUnits: string, toUnits: string, value: string) => ({ id: `${fromUnits}-${toUnits}`, fromUnits, toUnits, value, creationDate: at, modificationDate: at });
const price = (q: Partial<Parameters<typeof salesPriceOf>[0]>) => salesPriceOf({ product, productId: PRODUCT_ID, quantity: '1', documentDate: '2026-05-10', ...q });

t.test('the sources, one case each', async (t) => {
  t.match(price({}), { price: { source: 'PRODUCT', value: '100.00', code: 'A' }, firstDiscount: { source: 'PRODUCT', value: '5.00' } }, "the product's");
  t.match(price({ inputUnitPrice: '7.5', inputFirstDiscount: '1' }), { price: { source: 'INPUT', value: '7.5', code: null }, firstDiscount: { source: 'INPUT', value: '1' } }, 'the input wins');
  const tariff = list('PRICE', [{ value: '90', stretchs: [stretch('10', '49', '85'), stretch('50', '1000', '80')] }]);
  t.match(price({ tariff }).price, { source: 'TARIFF', value: '90.00', code: 'T1', name: 'Tarifa 1', indicator: 'PRICE' }, 'below every stretch: the line');
  t.match(price({ tariff, quantity: '10' }).price, { value: '85.00' }, 'first stretch, its lower bound included');
  t.match(price({ tariff, quantity: '49' }).price, { value: '85.00' }, 'its upper bound included');
  t.match(price({ tariff, quantity: '-60' }).price, { value: '80.00' }, 'a credit note by its absolute quantity');
  t.match(price({ tariff: list('INCREMENT', [{ value: '12.5' }]) }).price, { source: 'TARIFF', value: '112.50', indicator: 'INCREMENT' }, 'INCREMENT adds a percentage');
  t.match(price({ tariff: list('INCREMENT', [{ value: '-100' }]) }).price, { value: '0.00' }, '-100 % is free');
  t.match(price({ tariff: list('NONE', [{ value: '1' }]) }).price, { source: 'PRODUCT', value: '100.00' }, "NONE keeps the product's price");
  t.match(price({ tariff: list('PRICE', [{ value: '90' }], { enabled: false }) }).price, { source: 'PRODUCT' }, 'a disabled tariff is not applied');
  t.match(price({ tariff: list('PRICE', [{ value: '90', enabled: false }]) }).price, { source: 'PRODUCT' }, 'nor a disabled line');
  t.match(price({ tariff: list('PRICE', [{ value: '90' }], { endDate: '2026-05-09' }) }).price, { source: 'PRODUCT' }, 'nor an expired tariff');
  const dated = list('PRICE', [{ value: '90', endDate: '2026-05-31' }, { value: '95', startDate: '2026-06-01' }]);
  t.match(price({ tariff: dated, documentDate: '2026-05-31T10:00:00Z' }).price, { value: '90.00' }, 'the line valid on the date (a date-time cut to its date)');
  t.match(price({ tariff: dated, documentDate: '2026-06-01' }).price, { value: '95.00' }, 'the next one from its start date');
  const group = list(null, [{ value: '15', stretchs: [stretch('100', '200', '20')] }], { code: 'D1', name: 'Mayoristas' });
  t.match(price({ discountGroup: group }).firstDiscount, { source: 'DISCOUNT_GROUP', value: '15', code: 'D1', name: 'Mayoristas' }, 'the discount group');
  t.match(price({ discountGroup: group, quantity: '150' }).firstDiscount, { value: '20' }, 'its stretch');
  t.match(price({ discountGroup: list(null, [{ productId: 'other', value: '15' }]) }).firstDiscount, { source: 'PRODUCT', value: '5.00' }, "another product's line is not applied");
});

// Stretches of integer units, possibly overlapping; values in cents.
const stretchsArb = fc.array(fc.record({ from: fc.integer({ min: 0, max: 60 }), len: fc.integer({ min: 0, max: 20 }), cents: fc.integer({ min: 0, max: 100_000 }) }), { maxLength: 6 })
  .map((xs) => xs.map((x) => stretch(String(x.from), String(x.from + x.len), new Decimal(x.cents).div(100).toFixed(2))));
const overlaps = (s: ReturnType<typeof stretch>[]) => s.some((a, i) => s.some((b, j) => i < j && Number(a.fromUnits) <= Number(b.toUnits) && Number(b.fromUnits) <= Number(a.toUnits)));
const decideTariff = (stretchs: ReturnType<typeof stretch>[]) => {
  let n = 0;
  return decidePriceLists(
    { type: 'CreatePriceList', kind: 'salesTariff', id: 't', code: 'T', now: at, header: { name: 'T', type: 'PRICE', startDate: null, endDate: null, enabled: true },
      lines: [{ productId: PRODUCT_ID, value: '10', stretchs: stretchs.map(({ fromUnits, toUnits, value }) => ({ fromUnits, toUnits, value })) }] },
    initialPriceListsState(), { productExists: (id) => id === PRODUCT_ID, newId: (k) => `${k}-${n++}` },
  );
};

t.test('a tariff is accepted exactly when its stretches do not overlap', async (t) => {
  holds(t, fc.property(stretchsArb, (stretchs) => {
    let refusal: string | null = null;
    try { decideTariff(stretchs); } catch (e) { refusal = e instanceof BusinessError ? e.code : String(e); }
    expect(overlaps(stretchs) ? refusal === 'sales.businessErrors.stretchsOverlap' : refusal === null, `refusal ${refusal} for ${JSON.stringify(stretchs)}`);
  }));
});

t.test('an accepted PRICE tariff prices each quantity at its stretch, else at its line', async (t) => {
  holds(t, fc.property(stretchsArb.filter((s) => !overlaps(s)), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 9 }), (stretchs, units, tenths) => {
    const [event] = decideTariff(stretchs);
    const tariff = (event.data as { priceList: PriceList }).priceList;
    const quantity = `${units}.${tenths}`;
    const got = price({ tariff, quantity }).price;
    const covering = stretchs.find((s) => new Decimal(quantity).gte(s.fromUnits) && new Decimal(quantity).lte(s.toUnits));
    expect(got.source === 'TARIFF', `source ${got.source}`);
    expect(new Decimal(got.value).eq(covering ? covering.value : '10'), `${quantity} priced ${got.value}, stretch ${JSON.stringify(covering)}`);
  }));
});

t.test('what the client sends always wins; without lists the product prices', async (t) => {
  const decimal = fc.integer({ min: 0, max: 10_000_000 }).map((c) => new Decimal(c).div(100).toFixed(2));
  holds(t, fc.property(fc.option(decimal, { nil: null }), fc.option(decimal, { nil: null }), fc.integer({ min: -500, max: 500 }), (unitPrice, discount, quantity) => {
    const tariff = list('PRICE', [{ value: '1.23' }]);
    const got = price({ tariff, discountGroup: list(null, [{ value: '3' }]), inputUnitPrice: unitPrice, inputFirstDiscount: discount, quantity: String(quantity) });
    expect(unitPrice === null ? got.price.source === 'TARIFF' && got.price.value === '1.23' : got.price.source === 'INPUT' && got.price.value === unitPrice, `price ${JSON.stringify(got.price)}`);
    expect(discount === null ? got.firstDiscount.source === 'DISCOUNT_GROUP' : got.firstDiscount.value === discount, `discount ${JSON.stringify(got.firstDiscount)}`);
    const bare = price({ quantity: String(quantity) });
    expect(bare.price.value === product.salesUnitPrice && bare.firstDiscount.value === product.firstSalesDiscount, 'the product');
  }));
});

t.test('an INCREMENT tariff never lowers the price for a positive increment, and scales it exactly', async (t) => {
  holds(t, fc.property(fc.integer({ min: -10_000, max: 100_000 }), fc.integer({ min: 0, max: 1_000_000_000 }), (incrementCents, priceMillis) => {
    const increment = new Decimal(incrementCents).div(100).toFixed(2);
    const base = new Decimal(priceMillis).div(1000).toFixed(3);
    const got = salesPriceOf({ product: { ...product, salesUnitPrice: base }, productId: PRODUCT_ID, quantity: '1', documentDate: '2026-01-01', tariff: list('INCREMENT', [{ value: increment }]) }).price.value;
    const exact = new Decimal(base).times(new Decimal(100).plus(increment)).div(100);
    expect(new Decimal(got).minus(exact).abs().lte('0.0000005'), `${base} + ${increment}% = ${got}, exactly ${exact}`);
    if (incrementCents >= 0) expect(new Decimal(got).gte(base), `${got} below ${base}`);
  }));
});

t.test('the price lists refuse what would make a price ambiguous or meaningless', async (t) => {
  let n = 0;
  const create = (header: Partial<PriceListHeader>, lines: object[], kind: 'salesTariff' | 'salesDiscount' = 'salesTariff') =>
    decidePriceLists({ type: 'CreatePriceList', kind, id: 'x', code: 'X', now: at, header: { name: 'X', type: 'PRICE', startDate: null, endDate: null, enabled: true, ...header }, lines: lines as never },
      initialPriceListsState(), { productExists: (id) => id === PRODUCT_ID, newId: (k) => `${k}-${n++}` });
  const code = (run: () => unknown) => { try { run(); return null; } catch (e) { return (e as BusinessError).code; } };
  t.equal(code(() => create({ type: 'MARGIN' }, [])), 'sales.businessErrors.tariffTypeNotSupported', 'MARGIN: we keep no cost price');
  t.equal(code(() => create({ startDate: '2026-02-01', endDate: '2026-01-31' }, [])), 'sales.businessErrors.priceListPeriodReversed', 'a reversed period');
  t.equal(code(() => create({}, [{ productId: PRODUCT_ID, value: '1', startDate: '2026-01-01', endDate: '2026-06-30' }, { productId: PRODUCT_ID, value: '2', startDate: '2026-06-30' }])),
    'sales.businessErrors.priceListLinesOverlap', "a product's lines sharing a day");
  t.equal(code(() => create({}, [{ productId: PRODUCT_ID, value: '1', endDate: '2026-06-29' }, { productId: PRODUCT_ID, value: '2', startDate: '2026-06-30' }])), null, 'consecutive periods are fine');
  t.equal(code(() => create({}, [{ productId: PRODUCT_ID, value: '1', stretchs: [{ fromUnits: '5', toUnits: '4', value: '1' }] }])), 'sales.businessErrors.stretchUnitsReversed', 'a reversed stretch');
  t.equal(code(() => create({}, [{ productId: 'nope', value: '1' }])), 'sales.businessErrors.productNotFound', 'an unknown product');
  t.equal(code(() => create({}, [{ productId: PRODUCT_ID, value: '-1' }])), 'global.businessErrors.invalidInput', 'a negative price');
  t.equal(code(() => create({}, [{ productId: PRODUCT_ID, value: '100.5' }], 'salesDiscount')), 'global.businessErrors.invalidInput', 'a discount over 100 %');
  t.equal(code(() => create({ type: 'INCREMENT' }, [{ productId: PRODUCT_ID, value: '-100.01' }])), 'global.businessErrors.invalidInput', 'an increment below -100 %');
});

t.test('the Catalog folds price list events, and fails loudly on one the state cannot have produced', async (t) => {
  const [created] = decideTariff([]);
  const fold = (events: object[]) => events.reduce((s: ReturnType<typeof initialCatalogState>, e) => evolveCatalog(s, e as never), initialCatalogState());
  t.equal(fold([created]).priceLists.lists.salesTariff.get('t')?.code, 'T', 'created');
  const deleted = { type: 'SalesTariffDeleted', data: { priceListId: 't', code: 'T', at } };
  t.equal(fold([created, deleted]).priceLists.lists.salesTariff.size, 0, 'deleted');
  t.throws(() => fold([created, created]), /invariant violated: SalesTariffCreated/, 'created twice');
  t.throws(() => fold([created, deleted, deleted]), /invariant violated: SalesTariffDeleted/, 'deleted twice');
  t.throws(() => fold([{ ...created, type: 'SalesDiscountUpdated' }]), /invariant violated: SalesDiscountUpdated/, 'an update of a list that does not exist');
});
