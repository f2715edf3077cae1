/**
 * Property tests of the tax calculation, over random lines of every country's treatments. Each predicate
 * throws on the first broken expectation so fast-check shrinks to a minimal counterexample.
 */
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from 'decimal.js';
import { calculateDocumentTaxes, type DocumentTaxes, type TaxDocumentInput, type TaxLineInput } from '../../domain/taxes/calculate.ts';
import { resolveTreatment, taxCatalogueFor } from '../../domain/taxes/catalogue/index.ts';
import { expect, holds } from '../helpers/property.ts';

const COUNTRIES = ['ES', 'FR', 'DE', 'GB', 'IE'] as const;
const sum = (values: string[]) => values.reduce((total, v) => total.plus(v), new Decimal(0));
/** Integer units of 1/10^decimals as decimal text, never via floats. */
const scaled = (units: bigint, decimals: number) => new Decimal(units.toString()).dividedBy(10 ** decimals).toFixed(decimals);

// A document is taxed under one system (ES: IVA or the Canaries' IGIC), so its lines draw from one.
const systemOf = fc.constantFrom(...COUNTRIES).chain((country) =>
  fc.constantFrom(...new Set(taxCatalogueFor(country).treatments.map((x) => x.taxType))).map((taxType) => ({ country, taxType })));

const documentOf = systemOf.chain(({ country, taxType }) => {
  const codes = taxCatalogueFor(country).treatments.filter((x) => x.taxType === taxType).map((x) => x.code);
  const lineOf = fc.record({
    quantity: fc.bigInt({ min: -5_000n, max: 50_000n }).map((u) => scaled(u, 2)),
    unitPrice: fc.bigInt({ min: 0n, max: 10_000_000n }).map((u) => scaled(u, 3)),
    discountPercent: fc.bigInt({ min: 0n, max: 10_000n }).map((u) => scaled(u, 2)),
    taxTreatment: fc.constantFrom(...codes).map((code) => resolveTreatment(country, code)),
    subjectToWithholding: fc.boolean(),
    isService: fc.option(fc.boolean(), { nil: undefined }),
  });
  return fc.record({
    country: fc.constant(country),
    hasEquivalenceSurcharge: fc.boolean(),
    withholdingPercentage: country === 'ES' ? fc.constantFrom(undefined, '15', '7', '19') : fc.constant(undefined),
    lines: fc.array(lineOf, { minLength: 1, maxLength: 12 }),
    // The country's rule, or another rounding its law allows (the catalogue's options only).
    rounding: fc.option(fc.constantFrom(...taxCatalogueFor(country).roundingOptions).map(({ level, mode }) => ({ level, mode })), { nil: undefined }),
  }) satisfies fc.Arbitrary<TaxDocumentInput>;
});

function totalsAddUp(doc: DocumentTaxes): void {
  const { totals } = doc;
  expect(sum(doc.lines.map((l) => l.totalGross)).eq(totals.totalGross), 'gross = sum of line gross');
  expect(sum(doc.lines.map((l) => l.totalDiscount)).eq(totals.totalDiscount), 'discount = sum of line discounts');
  expect(sum(doc.lines.map((l) => l.totalNet)).eq(totals.totalNet), 'net = sum of line nets');
  expect(new Decimal(totals.totalGross).minus(totals.totalDiscount).eq(totals.totalNet), 'net = gross - discount');
  expect(sum(doc.taxes.map((r) => r.taxBase)).eq(totals.totalVatBase), 'VAT base = sum of the per-rate bases');
  expect(sum(doc.taxes.map((r) => r.taxAmount)).eq(totals.totalVat), 'VAT = sum of the per-rate taxes');
  expect(sum(doc.taxes.map((r) => r.equivalenceSurchargeQuota)).eq(totals.totalFeeSurcharge), 'surcharge = sum of the per-rate surcharges');
  expect(sum(doc.withholdings.map((w) => w.withholdingAmount)).eq(totals.totalWithholding), 'withholding = sum of its rows');
  const liquid = new Decimal(totals.totalNet).plus(totals.totalVat).plus(totals.totalFeeSurcharge).minus(totals.totalWithholding);
  expect(liquid.eq(totals.totalLiquid), `liquid ${totals.totalLiquid} = net + VAT + surcharge - withholding (${liquid.toFixed(2)})`);
}

function twoDecimals(doc: DocumentTaxes): void {
  const amounts = [
    ...Object.values(doc.totals),
    ...doc.lines.flatMap((l) => [l.totalGross, l.totalDiscount, l.totalNet]),
    ...doc.taxes.flatMap((r) => [r.taxBase, r.taxAmount, r.equivalenceSurchargeQuota]),
    ...doc.withholdings.flatMap((w) => [w.withholdingBase, w.withholdingAmount]),
  ];
  for (const amount of amounts) expect(/^-?\d+\.\d{2}$/.test(amount), `amount ${amount} has exactly 2 decimals`);
}

t.test('totals are the sums of the per-rate figures; liquid = net + VAT + surcharge - withholding; 2 decimals', async (t) => {
  holds(t, fc.property(documentOf, (input) => {
    const doc = calculateDocumentTaxes(input);
    totalsAddUp(doc);
    twoDecimals(doc);
  }));
});

t.test('scaling every quantity never changes which rates appear', async (t) => {
  holds(t, fc.property(documentOf, fc.integer({ min: 2, max: 100 }), (input, factor) => {
    const scaledInput = { ...input, lines: input.lines.map((l) => ({ ...l, quantity: new Decimal(l.quantity).times(factor).toFixed(2) })) };
    const rates = (doc: DocumentTaxes) => doc.taxes.map((r) => `${r.taxTreatmentCode}@${r.taxPercentage}+${r.equivalenceSurchargePercentage}`).sort().join(' ');
    expect(rates(calculateDocumentTaxes(input)) === rates(calculateDocumentTaxes(scaledInput)), 'the same rates');
  }));
});

t.test('a zero-rated or reverse-charge line adds its base and no tax', async (t) => {
  const noTax = ['EXEMPT', 'EU-GOODS', 'EU-SERVICES', 'EXPORT'] as const;
  holds(t, fc.property(documentOf.filter((d) => d.country !== 'GB' && d.lines.every((l) => l.taxTreatment.treatment.taxType !== 'IGIC')), fc.constantFrom(...noTax), fc.bigInt({ min: 1n, max: 10_000_000n }), (input, code, cents) => {
    const extra: TaxLineInput = { quantity: '1', unitPrice: scaled(cents, 2), taxTreatment: resolveTreatment(input.country, code), subjectToWithholding: false };
    const before = calculateDocumentTaxes(input).totals;
    const after = calculateDocumentTaxes({ ...input, lines: [...input.lines, extra] }).totals;
    expect(new Decimal(after.totalVatBase).minus(before.totalVatBase).eq(scaled(cents, 2)), 'the base grows by the line');
    expect(after.totalVat === before.totalVat && after.totalFeeSurcharge === before.totalFeeSurcharge, 'no tax, no surcharge');
    expect(new Decimal(after.totalLiquid).minus(before.totalLiquid).eq(scaled(cents, 2)), 'the total grows by the line alone');
  }));
});

t.test('a credit note (every quantity negated) negates every amount', async (t) => {
  holds(t, fc.property(documentOf, (input) => {
    const credit = { ...input, lines: input.lines.map((l) => ({ ...l, quantity: new Decimal(l.quantity).negated().toFixed(2) })) };
    const [a, b] = [calculateDocumentTaxes(input), calculateDocumentTaxes(credit)];
    const amounts = (doc: DocumentTaxes) => [
      ...Object.values(doc.totals),
      ...doc.lines.flatMap((l) => [l.totalGross, l.totalDiscount, l.totalNet]),
      ...doc.taxes.flatMap((r) => [r.taxBase, r.taxAmount, r.equivalenceSurchargeQuota]),
      ...doc.withholdings.flatMap((w) => [w.withholdingBase, w.withholdingAmount]),
    ];
    const [before, after] = [amounts(a), amounts(b)];
    expect(before.length === after.length, 'the same rows');
    before.forEach((amount, i) => expect(new Decimal(amount).negated().eq(after[i]), `${amount} negated is ${after[i]}`));
  }));
});

t.test('each rate\'s tax and surcharge are within one cent of base x rate (per line at line level)', async (t) => {
  holds(t, fc.property(documentOf, (input) => {
    const doc = calculateDocumentTaxes(input);
    for (const row of doc.taxes) {
      // Line level rounds each line: up to one cent per line of the rate; the document levels round once per rate.
      const lines = doc.lines.filter((l) => l.taxTreatmentCode === row.taxTreatmentCode && l.equivalenceSurchargePercentage === row.equivalenceSurchargePercentage).length;
      const bound = new Decimal('0.01').times(doc.rounding.level === 'LINE' ? lines : 1);
      const off = (amount: string, percentage: string) => new Decimal(amount).minus(new Decimal(row.taxBase).times(percentage).dividedBy(100)).abs();
      expect(off(row.taxAmount, row.taxPercentage).lt(bound), `${row.taxTreatmentCode}: ${row.taxAmount} within ${bound} of ${row.taxBase} x ${row.taxPercentage} %`);
      expect(off(row.equivalenceSurchargeQuota, row.equivalenceSurchargePercentage).lt(bound), `${row.taxTreatmentCode}: surcharge within ${bound}`);
    }
  }));
});
