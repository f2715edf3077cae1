/**
 * Sales document lines priced by tariffs and discount groups, through GraphQL on the real service:
 * - a document's header takes the customer's salesTariffId and salesDiscountGroupId at creation, or the
 *   ones it sends (null: none); another organisation's list or an unknown one is refused, nothing appended;
 * - each product line without a sent unitPrice / firstDiscount takes the price and discount productPriceById
 *   answers for the same product, customer (or lists), date and quantity: PRICE and INCREMENT tariffs with
 *   stretches and dated lines, a discount group with a stretch; converted into a foreign currency;
 * - an update changing the header's lists, date, rate or a line's quantity prices again only the lines whose
 *   price or discount came from a list or the product; sent values stay;
 * - the headers expose salesTariffId, salesDiscountGroupId and withholdingPercentage;
 * - a line stored before the price sources (unitPriceFromProduct) reads in the new shape.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { SalesAggregate } from '../commands/sales/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { Decimal } from '../domain/money.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, store, db } = api.service as any;
const ctx = { organisationId: api.organisationId };
const { ok, refused } = graphqlAnswers(api);

const CREATE_QUOTE = `mutation($v: SalesQuoteCreateGLDtoInput!) { createSalesQuote(input: $v) { id } }`;
const UPDATE_QUOTE = `mutation($v: SalesQuoteUpdateGLDtoInput!) { updateSalesQuote(input: $v) { id } }`;
const CREATE_INVOICE = `mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`;
const UPDATE_INVOICE = `mutation($v: SalesInvoiceUpdateGLDtoInput!) { updateSalesInvoice(input: $v) { id } }`;
const PRICE = `query($id: ID!, $p: ProductPriceGLDtoInput!) { productPriceById(id: $id, productPrice: $p) { price { source value } firstDiscount { source value } } }`;
const HEADER = 'salesTariffId salesDiscountGroupId withholdingPercentage lines { id productCode totalQuantity unitPrice firstDiscount }';
const QUOTE = `query($id: UUID!) { salesQuotes(where: { id: { eq: $id } }) { nodes { ${HEADER} } } }`;
const INVOICE = `query($id: UUID!) { salesInvoices(where: { id: { eq: $id } }) { nodes { ${HEADER} } } }`;

const a = await mutate.createProduct(ctx, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00', firstSalesDiscount: '2' });
const b = await mutate.createProduct(ctx, { code: 'B', name: 'Libro B', category: 'PRODUCT', salesUnitPrice: '20.00' });
const advice = await mutate.createProduct(ctx, { code: 'S', name: 'Asesoría', category: 'SERVICE', salesUnitPrice: '300.00' });
const mayor = await mutate.createSalesTariff(ctx, {
  code: 'MAYOR', name: 'Mayoristas', type: 'PRICE', startDate: '2026-01-01',
  lines: [
    { productId: a.id, indicatorValue: '90', endDate: '2026-06-30', stretchs: [{ fromUnits: '10', toUnits: '49', indicatorValue: '85' }, { fromUnits: '50', toUnits: '999999', indicatorValue: '80' }] },
    { productId: a.id, indicatorValue: '95', startDate: '2026-07-01' },
  ],
});
const pvp = await mutate.createSalesTariff(ctx, { code: 'PVP', name: 'Incremento', type: 'INCREMENT', lines: [{ productId: a.id, indicatorValue: '10', stretchs: [{ fromUnits: '100', toUnits: '1000', indicatorValue: '5' }] }] });
const books = await mutate.createSalesDiscount(ctx, { code: 'DTO-L', name: 'Libros', lines: [{ productId: b.id, firstDiscount: '10', stretchs: [{ fromUnits: '100', toUnits: '1000', firstDiscount: '15' }] }] });
const customer = await mutate.createCustomer(ctx, { socialName: 'Bazar Luna', salesTariffId: mayor.id, salesDiscountGroupId: books.id });
const plain = await mutate.createCustomer(ctx, { socialName: 'Sin tarifa' });

const quote = async (id: string) => (await ok(QUOTE, { id })).salesQuotes.nodes[0];
const invoice = async (id: string) => (await ok(INVOICE, { id })).salesInvoices.nodes[0];
const money = (v: string) => new Decimal(v).toFixed(2);
/** Each line's [unitPrice, firstDiscount] to two decimals. */
const priced = (doc: any) => doc.lines.map((l: any) => [money(l.unitPrice), money(l.firstDiscount)]);

t.test("a line takes productPriceById's price and discount: the customer's lists, the date, the quantity's stretch", async (t) => {
  const cases: [string, string, string, object, [string, string]][] = [
    // product, date, quantity, the header's lists sent (none: the customer's), [price, discount] expected
    [a.id, '2026-03-02', '5', {}, ['90.00', '2.00']],
    [a.id, '2026-03-02', '10', {}, ['85.00', '2.00']],
    [a.id, '2026-03-02', '500', {}, ['80.00', '2.00']],
    [a.id, '2026-08-01', '500', {}, ['95.00', '2.00']],
    [a.id, '2025-12-31', '5', {}, ['100.00', '2.00']],
    [b.id, '2026-03-02', '5', {}, ['20.00', '10.00']],
    [b.id, '2026-03-02', '150', {}, ['20.00', '15.00']],
    [a.id, '2026-03-02', '5', { salesTariffId: pvp.id }, ['110.00', '2.00']],
    [a.id, '2026-03-02', '100', { salesTariffId: pvp.id }, ['105.00', '2.00']],
  ];
  for (const [productId, documentDate, quantity, lists, expected] of cases) {
    const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate, ...lists, lines: [{ productId, totalQuantity: quantity }] } })).createSalesQuote;
    const doc = await quote(id);
    const asked = (await ok(PRICE, { id: productId, p: { documentDate, quantity, customerId: customer.id, ...lists } })).productPriceById;
    const label = `${productId === a.id ? 'A' : 'B'} on ${documentDate} x ${quantity} ${JSON.stringify(lists)}`;
    t.same(priced(doc), [expected], `${label}: the line`);
    t.same(priced(doc), [[money(asked.price.value), money(asked.firstDiscount.value)]], `${label}: as productPriceById answers`);
  }
});

t.test('the header: the customer\'s lists at creation, the sent ones by id, none for a customer with none', async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-03-02', lines: [] } })).createSalesQuote;
  t.match(await quote(id), { salesTariffId: mayor.id, salesDiscountGroupId: books.id }, "the customer's");
  const sent = (await ok(CREATE_QUOTE, { v: { customerId: plain.id, documentDate: '2026-03-02', salesTariffId: pvp.id, salesDiscountGroupId: books.id, lines: [{ productId: a.id }, { productId: b.id }] } })).createSalesQuote.id;
  const doc = await quote(sent);
  t.match(doc, { salesTariffId: pvp.id, salesDiscountGroupId: books.id }, 'the sent ones');
  t.same(priced(doc), [['110.00', '2.00'], ['20.00', '10.00']], 'and the lines priced by them');
  const cleared = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-03-02', salesTariffId: null, salesDiscountGroupId: null, lines: [{ productId: a.id }, { productId: b.id, totalQuantity: '150' }] } })).createSalesQuote.id;
  const withNone = await quote(cleared);
  t.match(withNone, { salesTariffId: null, salesDiscountGroupId: null }, "null sends none over the customer's");
  t.same(priced(withNone), [['100.00', '2.00'], ['20.00', '0.00']], "and the lines take the product's");
  const none = (await ok(CREATE_QUOTE, { v: { customerId: plain.id, documentDate: '2026-03-02', lines: [{ productId: a.id }] } })).createSalesQuote.id;
  t.match(await quote(none), { salesTariffId: null, salesDiscountGroupId: null, lines: [{ unitPrice: '100.00' }] }, "no list: the product's price");
});

t.test('a sent unitPrice or firstDiscount is kept over the lists', async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-03-02', lines: [
    { productId: a.id, totalQuantity: '10', unitPrice: '70' }, { productId: b.id, totalQuantity: '150', firstDiscount: '1' },
  ] } })).createSalesQuote;
  t.same(priced(await quote(id)), [['70.00', '2.00'], ['20.00', '1.00']]);
});

t.test("another organisation's list, or an unknown one, is refused with nothing appended", async (t) => {
  const other = await commands.createOrganisation({}, { name: 'Vecino S.L.', country: 'ES' });
  const theirProduct = await mutate.createProduct({ organisationId: other.id }, { code: 'Z', name: 'Z', salesUnitPrice: '1' });
  const theirs = await mutate.createSalesTariff({ organisationId: other.id }, { code: 'AJENA', name: 'Ajena', lines: [{ productId: theirProduct.id, indicatorValue: '0.5' }] });
  const theirGroup = await mutate.createSalesDiscount({ organisationId: other.id }, { code: 'AJENO', name: 'Ajeno' });
  const v = { customerId: customer.id, documentDate: '2026-03-02', lines: [{ productId: a.id }] };
  await refused(t, 'a create naming their tariff', CREATE_QUOTE, { v: { ...v, salesTariffId: theirs.id } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'a create naming their discount group', CREATE_QUOTE, { v: { ...v, salesDiscountGroupId: theirGroup.id } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'a discount group named as a tariff', CREATE_QUOTE, { v: { ...v, salesTariffId: books.id } }, 'sales.businessErrors.priceListNotFound');
  const { id } = (await ok(CREATE_QUOTE, { v })).createSalesQuote;
  await refused(t, 'an update naming their tariff', UPDATE_QUOTE, { v: { id, salesTariffId: theirs.id } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'an update naming an unknown group', UPDATE_QUOTE, { v: { id, salesDiscountGroupId: randomUUID() } }, 'sales.businessErrors.priceListNotFound');
  t.match(await quote(id), { salesTariffId: mayor.id, lines: [{ unitPrice: '90.00' }] }, 'the quote as it was');
});

t.test('an update prices again only the lines whose price or discount came from a list or the product', async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-03-02', lines: [
    { productId: a.id, totalQuantity: '5' },
    { productId: a.id, totalQuantity: '5', unitPrice: '70' },
    { productId: b.id, totalQuantity: '150' },
    { productName: 'Portes', unitPrice: '3' },
  ] } })).createSalesQuote;
  const first = await quote(id);
  t.same(priced(first), [['90.00', '2.00'], ['70.00', '2.00'], ['20.00', '15.00'], ['3.00', '0.00']], 'created');

  await ok(UPDATE_QUOTE, { v: { id, salesTariffId: pvp.id, salesDiscountGroupId: null } });
  const byPvp = await quote(id);
  t.match(byPvp, { salesTariffId: pvp.id, salesDiscountGroupId: null });
  t.same(priced(byPvp), [['110.00', '2.00'], ['70.00', '2.00'], ['20.00', '0.00'], ['3.00', '0.00']], 'another tariff, no group: the sent price and the free line stay');

  await ok(UPDATE_QUOTE, { v: { id, salesTariffId: mayor.id, documentDate: '2026-08-01' } });
  t.same(priced(await quote(id)).slice(0, 2), [['95.00', '2.00'], ['70.00', '2.00']], "the tariff's line of the new date");

  const [line1, line2] = first.lines;
  await ok(UPDATE_QUOTE, { v: { id, documentDate: '2026-03-02', lines: [{ id: line1.id, totalQuantity: '50' }, { id: line2.id, totalQuantity: '50' }] } });
  t.same(priced(await quote(id)).slice(0, 2), [['80.00', '2.00'], ['70.00', '2.00']], "a new quantity takes its stretch; the sent price stays");

  await ok(UPDATE_QUOTE, { v: { id, lines: [{ id: line1.id, productName: 'Artículo A (caja)', unitPrice: '60' }] } });
  await ok(UPDATE_QUOTE, { v: { id, salesTariffId: pvp.id } });
  t.same(priced(await quote(id)).slice(0, 2), [['60.00', '2.00'], ['70.00', '2.00']], 'a price sent on a MODIFY is not priced again');
});

t.test("a foreign-currency invoice: the tariff's price converted at the rate, and again on a new rate", async (t) => {
  const { id } = (await ok(CREATE_INVOICE, { v: { customerId: customer.id, documentDate: '2026-03-02', currencyCode: 'USD', exchangeRate: '0.9', lines: [{ productId: a.id, totalQuantity: '5' }, { productId: a.id, totalQuantity: '10' }] } })).createSalesInvoice;
  // 90.00 EUR / 0.9 = 100.00 USD; 85.00 / 0.9 = 94.444... = 94.44.
  t.same(priced(await invoice(id)), [['100.00', '2.00'], ['94.44', '2.00']]);
  await ok(UPDATE_INVOICE, { v: { id, exchangeRate: '0.8' } });
  t.same(priced(await invoice(id)), [['112.50', '2.00'], ['106.25', '2.00']], 'priced again at 0.8');
});

t.test("the headers' withholdingPercentage", async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: plain.id, documentDate: '2026-03-02', withholdingPercentage: '15', lines: [{ productId: advice.id }] } })).createSalesQuote;
  t.match(await quote(id), { withholdingPercentage: '15' });
  await ok(UPDATE_QUOTE, { v: { id, withholdingPercentage: null } });
  t.match(await quote(id), { withholdingPercentage: null }, 'removed');
});

t.test('a line stored with unitPriceFromProduct reads with its price sources', async (t) => {
  const stream = AggregateStore.streamId(SalesAggregate.category, api.organisationId);
  const { id } = (await ok(CREATE_INVOICE, { v: { customerId: plain.id, documentDate: '2026-03-02', lines: [{ productId: a.id }, { productId: a.id, unitPrice: '5' }] } })).createSalesInvoice;
  const [created] = (await store.readStream(stream)).filter((e: any) => e.type === 'SalesDocumentCreated' && e.data.document.documentId === id);
  t.same(created.data.document.lines.map((l: any) => [l.unitPriceSource, l.firstDiscountSource]), [['PRODUCT', 'PRODUCT'], ['INPUT', 'PRODUCT']], 'recorded now: the sources');
  t.equal(created.metadata.schemaVersion, 2, 'at version 2');

  const oldId = randomUUID();
  const oldLines = created.data.document.lines.map((l: any) => {
    const { unitPriceSource, firstDiscountSource: _f, ...rest } = l;
    return { ...rest, lineId: randomUUID(), unitPriceFromProduct: unitPriceSource === 'PRODUCT' };
  });
  const oldData = { ...created.data, document: { ...created.data.document, documentId: oldId, lines: oldLines } };
  await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, 'SalesDocumentCreated', $3, $4 FROM moved`,
    [stream, randomUUID(), JSON.stringify(oldData), JSON.stringify({ ...created.metadata, causationId: randomUUID(), schemaVersion: 1 })],
  );
  const [read] = (await store.readStream(stream)).filter((e: any) => e.type === 'SalesDocumentCreated' && e.data.document.documentId === oldId);
  t.same(read.data.document.lines.map((l: any) => [l.unitPriceSource, l.firstDiscountSource, 'unitPriceFromProduct' in l]), [['PRODUCT', 'INPUT', false], ['INPUT', 'INPUT', false]],
    'the product-priced line reads as PRODUCT; a discount of then as sent');
});

t.test("an order converted from a quote keeps the quote's tariff price, later dated", async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-06-30', lines: [{ productId: a.id, totalQuantity: '5' }] } })).createSalesQuote;
  const [line] = (await quote(id)).lines;
  const order = (await ok(`mutation($v: SalesOrderCreateGLDtoInput!) { createSalesOrder(input: $v) { id } }`, { v: {
    customerId: customer.id, documentDate: '2026-07-02', lines: [{ originType: 'QUOTE', originId: id, originLineId: line.id }],
  } })).createSalesOrder.id;
  const [taken] = (await ok(`query($id: UUID!) { salesOrders(where: { id: { eq: $id } }) { nodes { salesTariffId lines { unitPrice firstDiscount } } } }`, { id: order })).salesOrders.nodes;
  t.same(taken, { salesTariffId: mayor.id, lines: [{ unitPrice: '90.00', firstDiscount: '2.00' }] }, "June's 90.00, not July's 95.00");
});

t.test("a line converted from a quote in the same currency keeps the quote's price and discount as agreed: re-dating, a new list or quantity never re-prices it", async (t) => {
  const { id } = (await ok(CREATE_QUOTE, { v: { customerId: customer.id, documentDate: '2026-06-30', lines: [{ productId: a.id, totalQuantity: '20' }] } })).createSalesQuote;
  const [line] = (await quote(id)).lines;
  const order = await mutate.createSalesOrder(ctx, { customerId: customer.id, documentDate: '2026-07-02', lines: [{ originType: 'QUOTE', originId: id, originLineId: line.id, totalQuantity: '5' }] });
  const taken = async () => (await commands.aggregates.load(SalesAggregate, api.organisationId)).state.documents.get(order.id).document.lines[0];
  t.match(await taken(), { unitPrice: '85.00', unitPriceSource: 'INPUT', firstDiscount: '2.00', firstDiscountSource: 'INPUT' }, "taken as agreed: the quote's 85.00 (20 units in June)");
  await mutate.updateSalesOrder(ctx, { id: order.id, documentDate: '2026-07-03' });
  t.match(await taken(), { unitPrice: '85.00', firstDiscount: '2.00' }, "re-dated: the quote's price for 20 in June, not July's 95.00");
  await mutate.updateSalesOrder(ctx, { id: order.id, salesTariffId: pvp.id });
  t.match(await taken(), { unitPrice: '85.00', firstDiscount: '2.00' }, 'another tariff: the same');
  const lineId = (await taken()).lineId;
  await mutate.updateSalesOrder(ctx, { id: order.id, lines: [{ id: lineId, totalQuantity: '12' }] });
  t.match(await taken(), { unitPrice: '85.00', firstDiscount: '2.00', totalQuantity: '12' }, 'another quantity: the same');
});
