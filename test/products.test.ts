/**
 * Products as Sage's clients write them (sage-names.md §3, §5; operations pm-126..128, 130-133): created
 * with code, name, comments, lineDescription, salesUnitPrice and a tax group, updated patch-style with only
 * the fields sent, listed with Sage's fields, deleted. Our former names are unknown input fields now, and a
 * product stored in the former shape (type GOODS, unitPrice, description, salesAccountId, disabled) is read
 * in Sage's names by the store, the read model and the Catalog aggregate.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { CatalogAggregate } from '../commands/catalog/aggregates.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { store, daemon, db } = api.service;

const { ok, refused } = graphqlAnswers(api);

// As Sage's sample collection declares them.
const CREATE = `mutation createProduct($input: ProductCreateGLDtoInput!) { createProduct(input: $input) { id } }`;
const UPDATE = `mutation updateProduct($input: ProductUpdateGLDtoInput!) { updateProduct(input: $input) { id } }`;
const DELETE = `mutation deleteProduct($input: ProductDeleteGLDtoInput!) { deleteProduct(input: $input) { id } }`;
const SAGE_FIELDS = `id code name category salesUnitPrice firstSalesDiscount taxGroupId lineDescription comments creationDate modificationDate obsolete
  salesAccountingAccountId salesAccountingAccount { code } salesDeliveryNoteBlockingEnabled salesInvoiceBlockingEnabled salesOrderBlockingEnabled`;
const byCode = async (code: string) => (await ok(`query($code: String) { products(where: { code: { eq: $code } }) { nodes { ${SAGE_FIELDS} } } }`, { code })).products.nodes[0];

const accounts = (await ok(`{ accountingAccounts(where: { code: { in: ["7000000", "7050000"] } }) { nodes { id code } } }`)).accountingAccounts.nodes;
const account = (code: string): string => accounts.find((a: { code: string }) => a.code === code).id;
// The organisation's standard tax group (taxes installed with it).
const taxGroupId = (await ok(`{ taxGroups(where: { code: { eq: "STANDARD" } }) { nodes { id } } }`)).taxGroups.nodes[0].id;

t.test('createProduct, updateProduct, products and deleteProduct as Sage clients send them', async (t) => {
  const { id } = (await ok(CREATE, { input: { code: 'CONS-01', name: 'Consultoría', comments: 'Tarifa 2026', lineDescription: 'Hora de consultoría', salesUnitPrice: 60.5, taxGroupId } })).createProduct;
  const created = await byCode('CONS-01');
  t.same(created, {
    id, code: 'CONS-01', name: 'Consultoría', category: 'NOT_SPECIFIED', salesUnitPrice: '60.50', firstSalesDiscount: '0.00', taxGroupId,
    lineDescription: 'Hora de consultoría', comments: 'Tarifa 2026', creationDate: created.creationDate, modificationDate: created.creationDate, obsolete: false,
    salesAccountingAccountId: null, salesAccountingAccount: null, salesDeliveryNoteBlockingEnabled: false, salesInvoiceBlockingEnabled: false, salesOrderBlockingEnabled: false,
  }, 'Sage fields, with the defaults of those not sent');

  t.same((await ok(UPDATE, { input: { id, name: 'Consultoría senior', comments: 'Tarifa 2027', salesUnitPrice: '75.125' } })).updateProduct, { id });
  const updated = await byCode('CONS-01');
  t.same(
    { ...updated, modificationDate: undefined },
    { ...created, name: 'Consultoría senior', comments: 'Tarifa 2027', salesUnitPrice: '75.125', modificationDate: undefined },
    'only the fields sent changed',
  );
  t.ok(updated.modificationDate >= created.modificationDate, 'modified when updated');

  await ok(UPDATE, { input: {
    id, category: 'SERVICE', firstSalesDiscount: '12.5', salesAccountingAccountId: account('7050000'), obsolete: true, comments: null,
    salesDeliveryNoteBlockingEnabled: true, salesInvoiceBlockingEnabled: true, salesOrderBlockingEnabled: true,
  } });
  t.match(await byCode('CONS-01'), {
    category: 'SERVICE', firstSalesDiscount: '12.50', salesAccountingAccountId: account('7050000'), salesAccountingAccount: { code: '7050000' }, obsolete: true,
    comments: null, name: 'Consultoría senior', salesDeliveryNoteBlockingEnabled: true, salesInvoiceBlockingEnabled: true, salesOrderBlockingEnabled: true,
  }, 'category, discount, account, obsolete and the blocks; null clears the comments');

  await ok(CREATE, { input: { code: 'ART-01', name: 'Artículo', category: 'PRODUCT', salesUnitPrice: '9.99', salesAccountingAccountId: account('7000000') } });
  await ok(CREATE, { input: { code: 'FEE-01', name: 'Cuota', category: 'FEE', salesUnitPrice: '120' } });
  const listed = await ok(`query($where: ProductFilterInput, $order: [ProductSortInput!], $first: Int) { products(where: $where, order: $order, first: $first) { totalCount nodes { code category salesUnitPrice salesAccountingAccount { code } } } }`, {
    where: { obsolete: { eq: false }, salesUnitPrice: { gt: '1' } }, order: [{ salesUnitPrice: 'DESC' }], first: 5,
  });
  t.same(listed.products, { totalCount: 2, nodes: [
    { code: 'FEE-01', category: 'FEE', salesUnitPrice: '120.00', salesAccountingAccount: null },
    { code: 'ART-01', category: 'PRODUCT', salesUnitPrice: '9.99', salesAccountingAccount: { code: '7000000' } },
  ] }, 'filtered on obsolete and price, sorted by price');
  t.match((await api.rest(`/products/${id}`)).body, { category: 'SERVICE', sales_unit_price: '75.125', first_sales_discount: '12.50', obsolete: true }, 'REST in the same names');

  t.same((await ok(DELETE, { input: { id } })).deleteProduct, { id });
  t.equal(await byCode('CONS-01'), undefined, 'deleted');
});

t.test('refusals name the field and append nothing', async (t) => {
  const { id } = (await ok(CREATE, { input: { code: 'SRV-01', name: 'Servicio', category: 'SERVICE' } })).createProduct;
  const unknownAccount = randomUUID();
  await refused(t, 'unknown sales account', CREATE, { input: { code: 'X1', name: 'X', salesAccountingAccountId: unknownAccount } }, 'accounting.businessErrors.accountNotFound');
  await refused(t, 'unknown account on update', UPDATE, { input: { id, salesAccountingAccountId: unknownAccount } }, 'accounting.businessErrors.accountNotFound');
  await refused(t, 'a price that is no decimal', CREATE, { input: { code: 'X2', name: 'X', salesUnitPrice: '12,50' } }, 'INVALID_DECIMAL');
  await refused(t, 'a price that is no decimal, on update', UPDATE, { input: { id, salesUnitPrice: 'abc' } }, 'INVALID_DECIMAL');
  await refused(t, 'a discount over 100%', UPDATE, { input: { id, firstSalesDiscount: '100.01' } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'a negative price', UPDATE, { input: { id, salesUnitPrice: '-1' } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'stock kept for a service', UPDATE, { input: { id, stockManaged: true } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'an unknown product', UPDATE, { input: { id: randomUUID(), name: 'X' } }, 'sales.businessErrors.productNotFound');
  for (const [field, value] of [['type', 'GOODS'], ['unitPrice', '1'], ['description', 'd'], ['salesAccountId', account('7000000')], ['disabled', true], ['obsolete', true]] as const) {
    const r = await api.gql(CREATE, { input: { code: 'OLD', name: 'Old', [field]: value } });
    t.match(r.errors?.[0], { message: new RegExp(`"${field}" is not defined by type "ProductCreateGLDtoInput"`), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, `${field}: an unknown field of createProduct`);
  }
  t.equal((await ok(`{ products(where: { code: { eq: "OLD" } }) { totalCount } }`)).products.totalCount, 0, 'none was created');
});

t.test('a product stored in the former shape reads in Sage names', async (t) => {
  const stream = AggregateStore.streamId(CatalogAggregate.category, api.organisationId);
  const template = (await store.readStream(stream)).find((e) => e.type === 'ProductCreated')!;
  const productId = randomUUID();
  const oldData = {
    productId, at: template.data.at, code: 'OLD-1', name: 'Tornillo', description: 'Tornillo 4mm', type: 'GOODS', unitPrice: '0.0125',
    taxTreatmentId: null, salesAccountId: account('7000000'), purchaseAccountId: null, stockManaged: true, allowNegativeStock: false, disabled: true,
  };
  // Written as a store of the former shape holds it: straight into es_events, at the stream's next revision.
  const { rows: [inserted] } = await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, 'ProductCreated', $3, $4 FROM moved
     RETURNING transaction_id::text AS commit, global_position::text AS prepare`,
    [stream, randomUUID(), JSON.stringify(oldData), JSON.stringify({ ...template.metadata, causationId: randomUUID(), schemaVersion: 1 })],
  );
  const current = {
    productId, at: oldData.at, code: 'OLD-1', name: 'Tornillo', category: 'PRODUCT', salesUnitPrice: '0.0125', firstSalesDiscount: '0.00', lineDescription: 'Tornillo 4mm',
    comments: null, taxGroupId: null, taxTreatmentId: null, salesAccountingAccountId: account('7000000'), purchaseAccountId: null, stockManaged: true, allowNegativeStock: false,
    obsolete: true, salesDeliveryNoteBlockingEnabled: false, salesInvoiceBlockingEnabled: false, salesOrderBlockingEnabled: false,
  };
  t.same((await store.readStream(stream)).find((e) => e.data.productId === productId)?.data, current, 'the store reads it in the current shape');
  t.ok(await daemon.waitFor({ commit: BigInt(inserted.commit), prepare: BigInt(inserted.prepare) }), 'projected');
  t.match(await byCode('OLD-1'), { category: 'PRODUCT', salesUnitPrice: '0.0125', lineDescription: 'Tornillo 4mm', salesAccountingAccount: { code: '7000000' }, obsolete: true }, 'the read model holds Sage values');
  const { state } = await new AggregateStore(store).load(CatalogAggregate, api.organisationId);
  t.match(state.products.get(productId), {
    code: 'OLD-1', category: 'PRODUCT', stockManaged: true, allowNegativeStock: false, salesAccountingAccountId: account('7000000'), purchaseAccountId: null,
    name: 'Tornillo', salesUnitPrice: '0.0125', lineDescription: 'Tornillo 4mm', obsolete: true,
  }, 'the Catalog folds it as a good whose stock is kept, with the old sales account (the deletion guard reads it)');
  // (The service's cached Catalog catches up on its next append, which meets the stream moved on.)
  await ok(CREATE, { input: { code: 'NEW-1', name: 'Nuevo' } });
  await refused(t, 'a stock-kept product made a service', UPDATE, { input: { id: productId, category: 'SERVICE' } }, 'sales.businessErrors.invalidProduct');
  await ok(UPDATE, { input: { id: productId, obsolete: false } });
  t.match(await byCode('OLD-1'), { obsolete: false, category: 'PRODUCT' }, 'and updated as any product');
});
