/**
 * Sales tariffs, discount groups and productPriceById through the real service: a PRICE tariff with
 * stretches and dated lines and a discount group, written with Sage-style mutations and read back with
 * salesTariffs / salesDiscounts / salesTariffById and Customer.salesTariff / salesDiscountGroup; a
 * customer with both priced by productPriceById (and with others named in the query), the tax part as a
 * sales line gets it; lines patched with requestedAction; refusals coded with nothing appended; another
 * organisation's tariff refused.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { taxTreatmentIdOf, taxIdOf, taxGroupIdOf } from '../domain/taxes/catalogue/index.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { mutate, commands, daemon } = api.service as any;
const ctx = { organisationId: api.organisationId };
const { ok, refused } = graphqlAnswers(api);

const CREATE_TARIFF = `mutation($input: SalesTariffCreateGLDtoInput!) { createSalesTariff(input: $input) { id } }`;
const UPDATE_TARIFF = `mutation($input: SalesTariffUpdateGLDtoInput!) { updateSalesTariff(input: $input) { id } }`;
const DELETE_TARIFF = `mutation($input: SalesTariffDeleteGLDtoInput!) { deleteSalesTariff(input: $input) { id } }`;
const CREATE_DISCOUNT = `mutation($input: SalesDiscountCreateGLDtoInput!) { createSalesDiscount(input: $input) { id } }`;
const UPDATE_DISCOUNT = `mutation($input: SalesDiscountUpdateGLDtoInput!) { updateSalesDiscount(input: $input) { id } }`;
const UPDATE_CUSTOMER = `mutation($input: CustomerUpdateGLDtoInput!) { updateCustomer(input: $input) { id } }`;
const PRICE = `query($id: ID!, $p: ProductPriceGLDtoInput!) { productPriceById(id: $id, productPrice: $p) {
  price { code name source value indicator } firstDiscount { code name source value } taxGroupId taxId equivalenceSurchargePercentage taxPercentage taxTreatmentId } }`;
const TARIFF_FIELDS = `id code name type startDate endDate enabled creationDate modificationDate
  lines { id enabled startDate endDate indicatorValue productId product { code } creationDate modificationDate stretchs { id fromUnits toUnits indicatorValue creationDate modificationDate } }`;

const a = await mutate.createProduct(ctx, { code: 'A', name: 'Artículo A', category: 'PRODUCT', salesUnitPrice: '100.00', firstSalesDiscount: '2' });
const b = await mutate.createProduct(ctx, { code: 'B', name: 'Libro B', category: 'PRODUCT', salesUnitPrice: '20.00', taxTreatmentId: taxTreatmentIdOf(api.organisationId, 'NAT-IVA10') });
const customer = await mutate.createCustomer(ctx, { socialName: 'Bazar Luna', hasEquivalenceSurcharge: true });
const price = async (id: string, p: object) => (await ok(PRICE, { id, p })).productPriceById;

let tariffId = '';
let discountId = '';

t.test('a tariff with dated lines and stretches, and a discount group, read back in Sage shape', async (t) => {
  tariffId = (await ok(CREATE_TARIFF, { input: {
    code: 'MAYOR', name: 'Mayoristas', type: 'PRICE', startDate: '2026-01-01',
    lines: [
      { productId: a.id, indicatorValue: '90', endDate: '2026-06-30', stretchs: [{ fromUnits: '10', toUnits: '49', indicatorValue: '85' }, { fromUnits: '50', toUnits: '999999', indicatorValue: '80' }] },
      { productId: a.id, indicatorValue: '95', startDate: '2026-07-01' },
    ],
  } })).createSalesTariff.id;
  discountId = (await ok(CREATE_DISCOUNT, { input: { code: 'DTO-L', name: 'Libros', lines: [{ productId: b.id, firstDiscount: '10', stretchs: [{ fromUnits: '100', toUnits: '1000', firstDiscount: '15' }] }] } })).createSalesDiscount.id;

  const [tariff] = (await ok(`{ salesTariffs(where: { code: { eq: "MAYOR" } }) { nodes { ${TARIFF_FIELDS} } } }`)).salesTariffs.nodes;
  t.match(tariff, {
    id: tariffId, code: 'MAYOR', name: 'Mayoristas', type: 'PRICE', enabled: true, endDate: null,
    lines: [
      { productId: a.id, product: { code: 'A' }, indicatorValue: '90.00', enabled: true, startDate: null, stretchs: [{ fromUnits: '10.00', toUnits: '49.00', indicatorValue: '85.00' }, { fromUnits: '50.00', indicatorValue: '80.00' }] },
      { productId: a.id, indicatorValue: '95.00', stretchs: [] },
    ],
  }, 'the tariff, its lines and stretches');
  t.ok(tariff.startDate.startsWith('2026-01-01'), 'its start date');
  t.same((await ok(`query($id: ID!) { salesTariffById(id: $id) { code } }`, { id: tariffId })).salesTariffById, { code: 'MAYOR' }, 'salesTariffById');
  t.match((await ok(`{ salesDiscounts { nodes { id code name lines { productId firstDiscount stretchs { fromUnits toUnits firstDiscount } } } } }`)).salesDiscounts.nodes,
    [{ id: discountId, code: 'DTO-L', name: 'Libros', lines: [{ productId: b.id, firstDiscount: '10.00', stretchs: [{ fromUnits: '100.00', toUnits: '1000.00', firstDiscount: '15.00' }] }] }], 'the discount group');

  await ok(UPDATE_CUSTOMER, { input: { id: customer.id, salesTariffId: tariffId, salesDiscountGroupId: discountId } });
  const [read] = (await ok(`query($id: UUID) { customers(where: { id: { eq: $id } }) { nodes { salesTariffId salesTariff { code name } salesDiscountGroup { code name } } } }`, { id: customer.id })).customers.nodes;
  t.same(read, { salesTariffId: tariffId, salesTariff: { code: 'MAYOR', name: 'Mayoristas' }, salesDiscountGroup: { code: 'DTO-L', name: 'Libros' } }, 'Customer.salesTariff and salesDiscountGroup');
});

t.test('productPriceById: the customer\'s tariff and discount group, at the date and quantity, with the line\'s tax', async (t) => {
  const org = api.organisationId;
  t.same(await price(a.id, { documentDate: '2026-03-02', quantity: '5', customerId: customer.id }), {
    price: { code: 'MAYOR', name: 'Mayoristas', source: 'TARIFF', value: '90.00', indicator: 'PRICE' },
    firstDiscount: { code: 'A', name: 'Artículo A', source: 'PRODUCT', value: '2.00' },
    taxGroupId: taxGroupIdOf(org, 'STANDARD'), taxId: taxIdOf(org, 'IVA21'), taxTreatmentId: taxTreatmentIdOf(org, 'NAT-IVA21'),
    taxPercentage: '21', equivalenceSurchargePercentage: '5.2',
  }, 'the tariff line of the date; recargo as the customer has it');
  t.match(await price(a.id, { documentDate: '2026-03-02T00:00:00Z', quantity: '10', customerId: customer.id }), { price: { value: '85.00' } }, 'the first stretch');
  t.match(await price(a.id, { documentDate: '2026-03-02', quantity: '500', customerId: customer.id }), { price: { value: '80.00' } }, 'the second');
  t.match(await price(a.id, { documentDate: '2026-08-01', quantity: '500', customerId: customer.id }), { price: { value: '95.00' } }, 'the line from July');
  t.match(await price(a.id, { documentDate: '2025-12-31', quantity: '5', customerId: customer.id }), { price: { source: 'PRODUCT', value: '100.00' } }, 'before the tariff starts');
  t.match(await price(b.id, { documentDate: '2026-03-02', quantity: '150', customerId: customer.id }), {
    price: { source: 'PRODUCT', value: '20.00' }, firstDiscount: { code: 'DTO-L', source: 'DISCOUNT_GROUP', value: '15.00' },
    taxTreatmentId: taxTreatmentIdOf(org, 'NAT-IVA10'), taxPercentage: '10', equivalenceSurchargePercentage: '1.4',
  }, "the discount group's stretch; the product's reduced rate");
  t.match(await price(a.id, { documentDate: '2026-03-02', quantity: '5' }), { price: { source: 'PRODUCT' }, equivalenceSurchargePercentage: '0' }, 'no customer: the product');

  const other = (await ok(CREATE_TARIFF, { input: { code: 'PVP', name: 'Incremento', type: 'INCREMENT', lines: [{ productId: a.id, indicatorValue: '10' }] } })).createSalesTariff.id;
  t.match(await price(a.id, { documentDate: '2026-03-02', quantity: '5', customerId: customer.id, salesTariffId: other }), { price: { code: 'PVP', value: '110.00', indicator: 'INCREMENT' } }, 'a tariff the query names');
  t.equal(await price(randomUUID(), { documentDate: '2026-03-02', quantity: '1' }), null, 'an unknown product: null');
  await refused(t, 'an unknown tariff named', PRICE, { id: a.id, p: { documentDate: '2026-03-02', quantity: '1', salesTariffId: randomUUID() } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'an unknown customer', PRICE, { id: a.id, p: { documentDate: '2026-03-02', quantity: '1', customerId: randomUUID() } }, 'sales.businessErrors.customerNotFound');
});

t.test('lines patched with requestedAction', async (t) => {
  const tariff = async () => (await ok(`query($id: ID!) { salesTariffById(id: $id) { ${TARIFF_FIELDS} } }`, { id: tariffId })).salesTariffById;
  const before = await tariff();
  const [first, second] = before.lines;
  await ok(UPDATE_TARIFF, { input: { id: tariffId, name: 'Mayoristas 2026', lines: [
    { id: first.id, requestedAction: 'MODIFY', stretchs: [{ id: first.stretchs[1].id, requestedAction: 'DELETE' }] },
    { id: second.id, requestedAction: 'DELETE' },
    { productId: b.id, indicatorValue: '18.5' },
  ] } });
  const after = await tariff();
  t.equal(after.name, 'Mayoristas 2026');
  t.match(after.lines, [{ id: first.id, indicatorValue: '90.00', stretchs: [{ id: first.stretchs[0].id, fromUnits: '10.00' }] }, { productId: b.id, indicatorValue: '18.50' }], 'modified, deleted, created');
  t.equal(after.lines[0].stretchs.length, 1, 'the stretch deleted');
  t.equal(after.lines[0].creationDate, first.creationDate, 'a modified line keeps its creation date');

  await ok(UPDATE_DISCOUNT, { input: { id: discountId, name: 'Libros 2026', enabled: false } });
  t.match((await ok(`{ salesDiscounts { nodes { name enabled lines { firstDiscount } } } }`)).salesDiscounts.nodes, [{ name: 'Libros 2026', enabled: false, lines: [{ firstDiscount: '10.00' }] }], 'a discount group updated');
  t.match(await price(b.id, { documentDate: '2026-03-02', quantity: '150', customerId: customer.id }), { firstDiscount: { source: 'PRODUCT' } }, 'a disabled group is not applied');
  await ok(UPDATE_DISCOUNT, { input: { id: discountId, enabled: true } });
});

t.test('refusals: coded, nothing appended', async (t) => {
  const line = (extra: object) => ({ input: { code: 'X', name: 'X', lines: [{ productId: a.id, indicatorValue: '1', ...extra }] } });
  await refused(t, 'a code taken', CREATE_TARIFF, { input: { code: 'MAYOR', name: 'X' } }, 'sales.businessErrors.priceListCodeAlreadyExists');
  await refused(t, 'MARGIN', CREATE_TARIFF, { input: { code: 'X', name: 'X', type: 'MARGIN' } }, 'sales.businessErrors.tariffTypeNotSupported');
  await refused(t, 'overlapping stretches', CREATE_TARIFF, line({ stretchs: [{ fromUnits: '1', toUnits: '10', indicatorValue: '1' }, { fromUnits: '10', toUnits: '20', indicatorValue: '1' }] }), 'sales.businessErrors.stretchsOverlap');
  await refused(t, 'a reversed stretch', CREATE_TARIFF, line({ stretchs: [{ fromUnits: '10', toUnits: '1', indicatorValue: '1' }] }), 'sales.businessErrors.stretchUnitsReversed');
  await refused(t, 'a reversed period', CREATE_TARIFF, line({ startDate: '2026-02-01', endDate: '2026-01-01' }), 'sales.businessErrors.priceListPeriodReversed');
  await refused(t, "a product's lines on the same day", CREATE_TARIFF, { input: { code: 'X', name: 'X', lines: [{ productId: a.id, indicatorValue: '1' }, { productId: a.id, indicatorValue: '2', startDate: '2026-01-01' }] } }, 'sales.businessErrors.priceListLinesOverlap');
  await refused(t, 'an unknown product', CREATE_TARIFF, line({ productId: randomUUID() }), 'sales.businessErrors.productNotFound');
  await refused(t, 'a line to modify that is not there', UPDATE_TARIFF, { input: { id: tariffId, lines: [{ id: randomUUID(), requestedAction: 'MODIFY' }] } }, 'global.businessErrors.partyItemNotFound');
  await refused(t, 'an unknown tariff', DELETE_TARIFF, { input: { id: randomUUID() } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'a discount over 100 %', CREATE_DISCOUNT, { input: { code: 'X', name: 'X', lines: [{ productId: a.id, firstDiscount: '101' }] } }, 'global.businessErrors.invalidInput');
  await refused(t, 'deleting a product a tariff prices', `mutation($input: ProductDeleteGLDtoInput!) { deleteProduct(input: $input) { id } }`, { input: { id: b.id } }, 'sales.businessErrors.productInPriceList');
  await refused(t, "deleting a customer's tariff", DELETE_TARIFF, { input: { id: tariffId } }, 'sales.businessErrors.priceListInUse');
  await refused(t, 'a customer naming an unknown tariff', UPDATE_CUSTOMER, { input: { id: customer.id, salesTariffId: randomUUID() } }, 'sales.businessErrors.priceListNotFound');
});

t.test("another organisation's tariff is refused and not read", async (t) => {
  const other = await commands.createOrganisation({}, { name: 'Vecino S.L.', country: 'ES' });
  const theirProduct = await mutate.createProduct({ organisationId: other.id }, { code: 'Z', name: 'Z', salesUnitPrice: '1' });
  const theirs = await mutate.createSalesTariff({ organisationId: other.id }, { code: 'AJENA', name: 'Ajena', lines: [{ productId: theirProduct.id, indicatorValue: '0.5' }] });
  t.ok(await daemon.waitFor(theirs.position!), 'their tariff is in the read models');
  await refused(t, 'a customer naming it', UPDATE_CUSTOMER, { input: { id: customer.id, salesTariffId: theirs.id } }, 'sales.businessErrors.priceListNotFound');
  await refused(t, 'a price query naming it', PRICE, { id: a.id, p: { documentDate: '2026-03-02', quantity: '1', salesTariffId: theirs.id } }, 'sales.businessErrors.priceListNotFound');
  t.equal((await ok(`query($id: ID!) { salesTariffById(id: $id) { code } }`, { id: theirs.id })).salesTariffById, null, 'not read by id');
  t.equal(await price(theirProduct.id, { documentDate: '2026-03-02', quantity: '1' }), null, 'nor their product priced');
  await refused(t, 'updating it', UPDATE_TARIFF, { input: { id: theirs.id, name: 'Mía' } }, 'sales.businessErrors.priceListNotFound');
});

t.test('deleting a tariff', async (t) => {
  const temp = (await ok(CREATE_TARIFF, { input: { code: 'TEMP', name: 'Temporal' } })).createSalesTariff.id;
  t.same((await ok(DELETE_TARIFF, { input: { id: temp } })).deleteSalesTariff, { id: temp });
  t.equal((await ok(`query($id: ID!) { salesTariffById(id: $id) { code } }`, { id: temp })).salesTariffById, null, 'gone');
  await ok(UPDATE_CUSTOMER, { input: { id: customer.id, salesTariffId: null } });
  t.same((await ok(DELETE_TARIFF, { input: { id: tariffId } })).deleteSalesTariff, { id: tariffId }, "a tariff no customer names any longer is deleted");
});
