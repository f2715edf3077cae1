/**
 * Shared settings and products through the API: business areas, job areas, document types, payment
 * means (IBAN/BIC checked), payment terms (lines adding up to 100%) and products (accounts from the
 * chart). Create, read through GraphQL and REST, filter, sort, page, delete; refusals append nothing.
 */
import t from 'tap';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { ok, refused } = graphqlAnswers(api);

t.test('business areas and job areas', async (t) => {
  for (const name of ['Retail', 'Wholesale', 'Export']) await ok(`mutation($n: String!) { createBusinessArea(input: { name: $n }) { id } }`, { n: name });
  await ok(`mutation { createJobArea(input: { name: "Sales" }) { id } }`);
  const sorted = await ok(`{ businessAreas(order: [{ name: DESC }], first: 2) { totalCount nodes { name } pageInfo { hasNextPage } } }`);
  t.same(sorted.businessAreas, { totalCount: 3, nodes: [{ name: 'Wholesale' }, { name: 'Retail' }], pageInfo: { hasNextPage: true } });
  const filtered = await ok(`{ businessAreas(where: { name: { startsWith: "Ex" } }) { nodes { id name } } }`);
  t.equal(filtered.businessAreas.nodes[0].name, 'Export');
  await refused(t, 'same name, other case', `mutation { createBusinessArea(input: { name: "retail" }) { id } }`, {}, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'blank name', `mutation { createBusinessArea(input: { name: "  " }) { id } }`, {}, 'global.businessErrors.invalidInput');
  const rest = await api.rest('/business_areas?items_per_page=2&page=2');
  t.same([rest.body.$total, rest.body.$page, rest.body.$items.map((i: any) => i.displayed_as)], [3, 2, ['Wholesale']], 'REST pages in name order');
  t.equal((await api.rest('/job_areas')).body.$items[0].name, 'Sales');
  const id = filtered.businessAreas.nodes[0].id;
  t.equal((await ok(`mutation($id: UUID!) { deleteBusinessArea(input: { id: $id }) { id } }`, { id })).deleteBusinessArea.id, id);
  t.equal((await api.rest(`/business_areas/${id}`)).status, 404);
  t.equal((await ok(`{ jobAreas { totalCount } }`)).jobAreas.totalCount, 1);
});

t.test("document types are the organisation's country's", async (t) => {
  const r = await ok(`{ documentTypes(first: 50, order: [{ code: ASC }]) { nodes { code name } } }`);
  const codes = r.documentTypes.nodes.map((n: any) => n.code);
  t.ok(codes.includes('NIF') && codes.includes('NIE') && codes.includes('PASSPORT'), codes.join(' '));
  const filtered = await ok(`{ documentTypes(where: { code: { eq: "NIF" } }) { nodes { name } } }`);
  t.match(filtered.documentTypes.nodes[0].name, /NIF/);
});

const CREATE_MEAN = `mutation($v: PaymentMeanCreateGLDtoInput!) { createPaymentMean(input: $v) { id } }`;

t.test('payment means: IBAN and BIC checksums', async (t) => {
  const bank = (await ok(`{ accountingAccounts(where: { code: { eq: "5720000" } }) { nodes { id } } }`)).accountingAccounts.nodes[0].id;
  const id = (await ok(CREATE_MEAN, { v: { code: 'TRF', name: 'Transferencia', type: 'BANK_TRANSFER', iban: 'es91 2100 0418 4502 0005 1332', bic: 'caixesbb', accountingAccountId: bank } })).createPaymentMean.id;
  await ok(CREATE_MEAN, { v: { code: 'CASH', name: 'Efectivo', type: 'CASH' } });
  const r = await ok(`query($id: UUID!) { paymentMeans(where: { id: { eq: $id } }) { nodes { code iban bic type disabled accountingAccount { code } } } }`, { id });
  t.same(r.paymentMeans.nodes[0], { code: 'TRF', iban: 'ES9121000418450200051332', bic: 'CAIXESBB', type: 'BANK_TRANSFER', disabled: false, accountingAccount: { code: '5720000' } });
  await refused(t, 'IBAN checksum', CREATE_MEAN, { v: { code: 'X1', name: 'X', type: 'BANK_TRANSFER', iban: 'ES9121000418450200051333' } }, 'global.businessErrors.invalidIban');
  await refused(t, 'IBAN length', CREATE_MEAN, { v: { code: 'X2', name: 'X', type: 'BANK_TRANSFER', iban: 'ES91210004184502' } }, 'global.businessErrors.invalidIban');
  await refused(t, 'BIC', CREATE_MEAN, { v: { code: 'X3', name: 'X', type: 'BANK_TRANSFER', bic: 'CAIXZZ' } }, 'global.businessErrors.invalidBic');
  await refused(t, 'taken code', CREATE_MEAN, { v: { code: 'trf', name: 'X', type: 'CASH' } }, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'unknown account', CREATE_MEAN, { v: { code: 'X4', name: 'X', type: 'CASH', accountingAccountId: '00000000-0000-4000-8000-000000000000' } }, 'accounting.businessErrors.accountNotFound');
  const rest = await api.rest('/payment_means');
  t.same(rest.body.$items.map((i: any) => [i.displayed_as, i.iban]), [['CASH Efectivo', null], ['TRF Transferencia', 'ES9121000418450200051332']]);
});

t.test('payment terms: lines add up to 100%; a mean in use stays', async (t) => {
  const trf = (await ok(`{ paymentMeans(where: { code: { eq: "TRF" } }) { nodes { id } } }`)).paymentMeans.nodes[0].id;
  const CREATE = `mutation($v: PaymentTermCreateGLDtoInput!) { createPaymentTerm(input: $v) { id } }`;
  const id = (await ok(CREATE, { v: { code: '30-60', name: '30/60 días', lines: [
    { condition: 'INVOICE_DATE', day: 30, type: 'PERCENTAGE', value: '40', paymentMeanId: trf },
    { condition: 'END_OF_MONTH', day: 60, payDays: [10], type: 'REMAINDER', paymentMeanId: trf },
  ] } })).createPaymentTerm.id;
  await ok(CREATE, { v: { code: 'CONTADO', name: 'Al contado', lines: [{ condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: 100 }] } });
  const r = await ok(`{ paymentTerms(order: [{ code: ASC }]) { nodes { code lines { order condition day payDays type value paymentMean { code } } } } }`);
  t.same(r.paymentTerms.nodes[0], { code: '30-60', lines: [
    { order: 1, condition: 'INVOICE_DATE', day: 30, payDays: [], type: 'PERCENTAGE', value: '40.00', paymentMean: { code: 'TRF' } },
    { order: 2, condition: 'END_OF_MONTH', day: 60, payDays: [10], type: 'REMAINDER', value: '60.00', paymentMean: { code: 'TRF' } },
  ] });
  const lines = (v: object[]) => ({ v: { code: 'BAD', name: 'Bad', lines: v } });
  const cases: [string, object[]][] = [
    ['over 100%', [{ condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '70' }, { condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '40' }]],
    ['under 100%', [{ condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '70' }]],
    ['remainder not last', [{ condition: 'INVOICE_DATE', type: 'REMAINDER' }, { condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '10' }]],
    ['three decimals', [{ condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '33.333' }, { condition: 'INVOICE_DATE', type: 'REMAINDER' }]],
    ['pay day 32', [{ condition: 'INVOICE_DATE', type: 'PERCENTAGE', value: '100', payDays: [32] }]],
    ['no lines', []],
  ];
  for (const [name, v] of cases) await refused(t, name, CREATE, lines(v), 'global.businessErrors.invalidPaymentTermLines');
  await refused(t, 'mean in a term', `mutation($id: UUID!) { deletePaymentMean(input: { id: $id }) { id } }`, { id: trf }, 'global.businessErrors.sharedSettingInUse');
  t.equal((await api.rest('/payment_terms')).body.$total, 2);
  t.equal((await ok(`mutation($id: UUID!) { deletePaymentTerm(input: { id: $id }) { id } }`, { id })).deletePaymentTerm.id, id);
  t.equal((await ok(`{ paymentTerms { totalCount } }`)).paymentTerms.totalCount, 1);
  const rows = await api.service.db.pool.query(`SELECT count(*)::int AS n FROM payment_term_lines WHERE payment_term_id = $1`, [id]);
  t.equal(rows.rows[0].n, 0, 'its lines went with it');
  t.equal((await ok(`mutation($id: UUID!) { deletePaymentMean(input: { id: $id }) { id } }`, { id: trf })).deletePaymentMean.id, trf, 'no longer in use');
});

t.test('products: goods and services with prices, accounts and stock keeping', async (t) => {
  const CREATE = `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`;
  const accounts = (await ok(`{ accountingAccounts(where: { code: { in: ["7000000", "6000000", "70"] } }) { nodes { id code } } }`)).accountingAccounts.nodes;
  const acc = (code: string) => accounts.find((a: any) => a.code === code).id;
  const screw = (await ok(CREATE, { v: { code: 'TORN-4', name: 'Tornillo 4mm', category: 'PRODUCT', salesUnitPrice: '0.0125', salesAccountingAccountId: acc('7000000'), purchaseAccountId: acc('6000000'), stockManaged: true } })).createProduct.id;
  await ok(CREATE, { v: { code: 'INST', name: 'Instalación', lineDescription: 'Hora de instalación', category: 'SERVICE', salesUnitPrice: 45 } });
  await ok(CREATE, { v: { code: 'ALQ', name: 'Alquiler', category: 'SERVICE' } });
  const r = await ok(`query($id: UUID!) { products(where: { id: { eq: $id } }) { nodes { code name category salesUnitPrice stockManaged allowNegativeStock salesAccountingAccount { code } purchaseAccount { code } taxTreatment { id } } } }`, { id: screw });
  t.same(r.products.nodes[0], { code: 'TORN-4', name: 'Tornillo 4mm', category: 'PRODUCT', salesUnitPrice: '0.0125', stockManaged: true, allowNegativeStock: false, salesAccountingAccount: { code: '7000000' }, purchaseAccount: { code: '6000000' }, taxTreatment: null });
  const services = await ok(`{ products(where: { category: { eq: SERVICE } }, order: [{ salesUnitPrice: DESC }]) { nodes { code salesUnitPrice } } }`);
  t.same(services.products.nodes, [{ code: 'INST', salesUnitPrice: '45.00' }, { code: 'ALQ', salesUnitPrice: '0.00' }]);
  const page = await ok(`{ products(first: 1, after: "MA==") { nodes { code } pageInfo { hasNextPage hasPreviousPage } } }`);
  t.same(page.products, { nodes: [{ code: 'INST' }], pageInfo: { hasNextPage: true, hasPreviousPage: true } });
  await refused(t, 'stock-kept service', CREATE, { v: { code: 'S1', name: 'S', category: 'SERVICE', stockManaged: true } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'negative price', CREATE, { v: { code: 'N1', name: 'N', category: 'PRODUCT', salesUnitPrice: '-1' } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'seven decimals', CREATE, { v: { code: 'N2', name: 'N', category: 'PRODUCT', salesUnitPrice: '1.0000001' } }, 'sales.businessErrors.invalidProduct');
  await refused(t, 'heading account', CREATE, { v: { code: 'N3', name: 'N', category: 'PRODUCT', salesAccountingAccountId: acc('70') } }, 'accounting.businessErrors.accountNotPostingLevel');
  await refused(t, 'taken code', CREATE, { v: { code: 'INST', name: 'N', category: 'SERVICE' } }, 'sales.businessErrors.productCodeAlreadyExists');
  const rest = await api.rest('/products?items_per_page=2');
  t.same([rest.body.$total, rest.body.$items.map((i: any) => i.displayed_as)], [3, ['ALQ Alquiler', 'INST Instalación']]);
  t.equal((await api.rest(`/products/${screw}`)).body.sales_unit_price, '0.0125');
  t.equal((await ok(`mutation($id: UUID!) { deleteProduct(input: { id: $id }) { id } }`, { id: screw })).deleteProduct.id, screw);
  t.equal((await ok(`{ products { totalCount } }`)).products.totalCount, 2);
});
