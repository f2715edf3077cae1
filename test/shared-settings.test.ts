/**
 * Shared settings and products through the API: business areas, job areas, document types, payment
 * means, payment methods (bank and cash accounts on the organisation's journal types and sub-accounts) and
 * payment terms in Sage's shape (lines adding up to the whole), and products (accounts from the chart). Create, read through GraphQL and REST, filter, sort, page, delete; refusals append nothing.
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

t.test("payment means in Sage's shape: { description } unique, at most 20 characters", async (t) => {
  // Sage's own operation (pm-118): the description alone.
  const id = (await ok(`mutation { createPaymentMean(input: { description: "Transferencia" }) { id } }`)).createPaymentMean.id;
  await ok(CREATE_MEAN, { v: { description: 'Recibo domiciliado', type: 'PAYMENT_IN', inactive: true } });
  const r = await ok(`query($id: UUID!) { paymentMeans(where: { id: { eq: $id } }) { nodes { id creationDate modificationDate description type inactive } } }`, { id });
  t.match(r.paymentMeans.nodes[0], { id, description: 'Transferencia', type: 'UNDEFINED', inactive: false });
  await refused(t, 'taken description, other case', CREATE_MEAN, { v: { description: 'TRANSFERENCIA' } }, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, '21 characters', CREATE_MEAN, { v: { description: 'x'.repeat(21) } }, 'global.businessErrors.invalidInput');
  await refused(t, 'no description', CREATE_MEAN, { v: {} }, 'GRAPHQL_VALIDATION_FAILED');
  // Our fields from before issue 17, optional extras Sage's shape does not contradict, stay accepted.
  const cheque = (await ok(CREATE_MEAN, { v: { description: 'Cheque', code: 'CHQ', iban: 'es91 2100 0418 4502 0005 1332', bic: 'caixesbb', bankName: 'CaixaBank', accountingAccountId: null } })).createPaymentMean.id;
  const read = await ok(`query($id: UUID!) { paymentMeans(where: { id: { eq: $id } }) { nodes { code iban bic bankName accountingAccount { code } } } }`, { id: cheque });
  t.same(read.paymentMeans.nodes[0], { code: 'CHQ', iban: 'ES9121000418450200051332', bic: 'CAIXESBB', bankName: 'CaixaBank', accountingAccount: null }, 'code and bank details kept');
  await refused(t, 'taken code, other case', CREATE_MEAN, { v: { description: 'Cheque 2', code: 'chq' } }, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'a bad IBAN', CREATE_MEAN, { v: { description: 'Cheque 3', iban: 'ES9121000418450200051333' } }, 'global.businessErrors.invalidIban');
  const blank = (await ok(CREATE_MEAN, { v: { description: 'Pagaré', iban: '', bic: ' ' } })).createPaymentMean.id;
  const blankRead = await ok(`query($id: UUID!) { paymentMeans(where: { id: { eq: $id } }) { nodes { iban bic } } }`, { id: blank });
  t.same(blankRead.paymentMeans.nodes[0], { iban: null, bic: null }, 'a blank IBAN or BIC is none');
  const rest = await api.rest('/payment_means');
  t.same(rest.body.$items.map((i: any) => [i.displayed_as, i.inactive, i.code, i.iban]), [
    ['Cheque', false, 'CHQ', 'ES9121000418450200051332'], ['Pagaré', false, null, null], ['Recibo domiciliado', true, null, null], ['Transferencia', false, null, null],
  ]);
});

t.test("payment terms in Sage's shape: no code, lines in their order", async (t) => {
  const trf = (await ok(`{ paymentMeans(where: { description: { eq: "Transferencia" } }) { nodes { id } } }`)).paymentMeans.nodes[0].id;
  const CREATE = `mutation($v: PaymentTermCreateGLDtoInput!) { createPaymentTerm(input: $v) { id } }`;
  // Sage's own operation (pm-124): a fixed amount, a percentage, the remaining amount last with order 9999.
  const id = (await ok(CREATE, { v: { name: '100 + 30% + resto', lines: [
    { type: 'REMAINING_AMOUNT', value: 0, order: 9999, condition: 'END_OF_MONTH', day: 60, payDays: [10], paymentMeanId: trf },
    { type: 'FIXED_AMOUNT', value: 100, order: 1, condition: 'DAY_OF_PAYMENT', day: 0 },
    { type: 'PERCENTAGE', value: 30, order: 2, condition: 'DAY_OF_PAYMENT', day: 30, paymentMeanId: trf },
  ] } })).createPaymentTerm.id;
  await ok(CREATE, { v: { name: '30/60 días', code: '30-60', lines: [
    { type: 'PERCENTAGE', value: '40', condition: 'DAY_OF_PAYMENT', day: 30 }, { type: 'REMAINING_AMOUNT', condition: 'END_OF_MONTH', day: 60 },
  ] } });
  await ok(CREATE, { v: { name: 'Al contado', lines: [{ type: 'PERCENTAGE', value: 100, condition: 'DAY_OF_PAYMENT' }] } });
  const r = await ok(`{ paymentTerms(order: [{ name: ASC }]) { nodes { name code lines { order condition day payDays type value paymentMean { description } } } } }`);
  t.same(r.paymentTerms.nodes.map((n: any) => [n.name, n.code]), [['100 + 30% + resto', null], ['30/60 días', '30-60'], ['Al contado', null]]);
  t.same(r.paymentTerms.nodes[0].lines, [
    { order: 1, condition: 'DAY_OF_PAYMENT', day: 0, payDays: [], type: 'FIXED_AMOUNT', value: '100.00', paymentMean: null },
    { order: 2, condition: 'DAY_OF_PAYMENT', day: 30, payDays: [], type: 'PERCENTAGE', value: '30.00', paymentMean: { description: 'Transferencia' } },
    { order: 9999, condition: 'END_OF_MONTH', day: 60, payDays: [10], type: 'REMAINING_AMOUNT', value: null, paymentMean: { description: 'Transferencia' } },
  ], 'lines in their order; the remainder of a term with a fixed amount is known per document');
  t.same(r.paymentTerms.nodes[1].lines.map((l: any) => [l.order, l.type, l.value]), [[1, 'PERCENTAGE', '40.00'], [9999, 'REMAINING_AMOUNT', '60.00']], 'order left out: the position, 9999 for the remainder');
  const lines = (v: object[]) => ({ v: { name: 'Bad', lines: v } });
  const pct = (value: string, order?: number) => ({ type: 'PERCENTAGE', value, condition: 'DAY_OF_PAYMENT', ...(order && { order }) });
  const rest = (order?: number) => ({ type: 'REMAINING_AMOUNT', condition: 'DAY_OF_PAYMENT', ...(order && { order }) });
  const cases: [string, object[]][] = [
    ['over 100%', [pct('70'), pct('40')]],
    ['under 100%', [pct('70')]],
    ['remainder not last in order', [rest(1), pct('10', 2)]],
    ['two remainders', [pct('10', 1), rest(2), rest(3)]],
    ['percentages leave no remainder', [pct('100', 1), rest(9999)]],
    ['a fixed amount without a remainder', [{ type: 'FIXED_AMOUNT', value: 50, condition: 'DAY_OF_PAYMENT' }, pct('100', 2)]],
    ['a fixed amount of 0', [{ type: 'FIXED_AMOUNT', value: 0, condition: 'DAY_OF_PAYMENT' }, rest()]],
    ['type NONE', [{ type: 'NONE', value: 100, condition: 'DAY_OF_PAYMENT' }]],
    ['condition NONE', [{ type: 'PERCENTAGE', value: 100, condition: 'NONE' }]],
    ['the same order twice', [pct('50', 1), pct('50', 1)]],
    ['order 10000', [pct('100', 10000)]],
    ['three decimals', [pct('33.333'), rest()]],
    ['pay day 32', [{ ...pct('100'), payDays: [32] }]],
    ['no lines', []],
  ];
  for (const [name, v] of cases) await refused(t, name, CREATE, lines(v), 'global.businessErrors.invalidPaymentTermLines');
  await refused(t, 'taken name', CREATE, { v: { name: 'al contado', lines: [pct('100')] } }, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'taken code', CREATE, { v: { name: 'Otro', code: '30-60', lines: [pct('100')] } }, 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'old line values', CREATE, lines([{ type: 'REMAINDER', condition: 'INVOICE_DATE' }]), 'GRAPHQL_VALIDATION_FAILED');
  await refused(t, 'mean in a term', `mutation($id: UUID!) { deletePaymentMean(input: { id: $id }) { id } }`, { id: trf }, 'global.businessErrors.sharedSettingInUse');
  t.same((await api.rest('/payment_terms')).body.$items.map((i: any) => i.displayed_as), ['100 + 30% + resto', '30-60 30/60 días', 'Al contado']);
  t.equal((await ok(`mutation($id: UUID!) { deletePaymentTerm(input: { id: $id }) { id } }`, { id })).deletePaymentTerm.id, id);
  t.equal((await ok(`{ paymentTerms { totalCount } }`)).paymentTerms.totalCount, 2);
  const rows = await api.service.db.pool.query(`SELECT count(*)::int AS n FROM payment_term_lines WHERE payment_term_id = $1`, [id]);
  t.equal(rows.rows[0].n, 0, 'its lines went with it');
  t.equal((await ok(`mutation($id: UUID!) { deletePaymentMean(input: { id: $id }) { id } }`, { id: trf })).deletePaymentMean.id, trf, 'no longer in use');
});

const CREATE_METHOD = `mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`;
const UPDATE_METHOD = `mutation($v: PaymentMethodUpdateGLDtoInput!) { updatePaymentMethod(input: $v) { id } }`;
const methodAccounts = (await ok(`{ accountingAccounts(where: { code: { in: ["5720000", "5700000", "57"] } }) { nodes { id code } } }`)).accountingAccounts.nodes;
const account = (code: string) => methodAccounts.find((a: { code: string }) => a.code === code).id;
const journals = (await ok(`{ journalTypes(first: 50) { nodes { id code } } }`)).journalTypes.nodes;
const journal = journals[0];

t.test('payment methods: a bank account and a cash box, read as Sage reads them (pm-120)', async (t) => {
  const bank = (await ok(CREATE_METHOD, { v: {
    referenceName: 'CaixaBank', type: 'BANK_ACCOUNT', journalTypeId: journal.id, subAccountId: account('5720000'),
    iban: 'es91 2100 0418 4502 0005 1332', bic: 'caixesbb', bankName: 'CaixaBank',
  } })).createPaymentMethod.id;
  await ok(CREATE_METHOD, { v: { referenceName: 'Caja', type: 'CASH', journalTypeId: journal.id, subAccountId: account('5700000') } });
  // pm-120's selection.
  const r = await ok(`query($where: PaymentMethodFilterInput, $first: Int) { paymentMethods(where: $where, first: $first) {
    nodes { id creationDate referenceName type journalType { code } subAccount { code } } } }`, { where: { type: { eq: 'BANK_ACCOUNT' } }, first: 10 });
  t.match(r.paymentMethods.nodes, [{ id: bank, referenceName: 'CaixaBank', type: 'BANK_ACCOUNT', journalType: { code: journal.code }, subAccount: { code: '5720000' } }]);
  t.equal(r.paymentMethods.nodes.length, 1);
  const byAccount = await ok(`{ paymentMethods(where: { subAccount: { code: { eq: "5700000" } } }) { nodes { referenceName disabled iban } } }`);
  t.same(byAccount.paymentMethods.nodes, [{ referenceName: 'Caja', disabled: false, iban: null }], 'filtered through its sub-account');
  const rest = await api.rest('/payment_methods');
  t.same(rest.body.$items.map((i: any) => [i.displayed_as, i.iban, i.bic]), [['CaixaBank', 'ES9121000418450200051332', 'CAIXESBB'], ['Caja', null, null]]);

  t.equal((await ok(UPDATE_METHOD, { v: { id: bank, referenceName: 'CaixaBank cuenta', disabled: true, iban: null } })).updatePaymentMethod.id, bank);
  const updated = await ok(`query($id: UUID!) { paymentMethods(where: { id: { eq: $id } }) { nodes { referenceName disabled iban bic subAccount { code } } } }`, { id: bank });
  t.same(updated.paymentMethods.nodes[0], { referenceName: 'CaixaBank cuenta', disabled: true, iban: null, bic: 'CAIXESBB', subAccount: { code: '5720000' } }, 'only what was sent changed');
  t.equal((await ok(`mutation($id: UUID!) { deletePaymentMethod(input: { id: $id }) { id } }`, { id: bank })).deletePaymentMethod.id, bank);
  t.equal((await ok(`{ paymentMethods { totalCount } }`)).paymentMethods.totalCount, 1);
});

t.test('payment methods refused: the journal type and sub-account are the organisation\'s, active and posting; names unique', async (t) => {
  const v = (over: object) => ({ v: { referenceName: 'Otra', journalTypeId: journal.id, subAccountId: account('5720000'), ...over } });
  const unknown = '00000000-0000-4000-8000-000000000000';
  await refused(t, 'unknown journal type', CREATE_METHOD, v({ journalTypeId: unknown }), 'accounting.businessErrors.journalTypeNotFound');
  await refused(t, 'unknown sub-account', CREATE_METHOD, v({ subAccountId: unknown }), 'accounting.businessErrors.accountNotFound');
  await refused(t, 'a heading account', CREATE_METHOD, v({ subAccountId: account('57') }), 'accounting.businessErrors.accountNotPostingLevel');
  await refused(t, 'taken reference name', CREATE_METHOD, v({ referenceName: 'caja' }), 'global.businessErrors.sharedSettingAlreadyExists');
  await refused(t, 'IBAN checksum', CREATE_METHOD, v({ iban: 'ES9121000418450200051333' }), 'global.businessErrors.invalidIban');
  await refused(t, 'no journal type', CREATE_METHOD, { v: { referenceName: 'X', subAccountId: account('5720000') } }, 'GRAPHQL_VALIDATION_FAILED');
  const cash = (await ok(`{ paymentMethods { nodes { id } } }`)).paymentMethods.nodes[0].id;
  await refused(t, 'an update to an unknown sub-account', UPDATE_METHOD, { v: { id: cash, subAccountId: unknown } }, 'accounting.businessErrors.accountNotFound');
  await refused(t, 'an update of an unknown method', UPDATE_METHOD, { v: { id: unknown, disabled: true } }, 'global.businessErrors.sharedSettingNotFound');
  // A blank IBAN or BIC is none: stored as null, never as "" (which no check would have passed).
  const blank = (await ok(CREATE_METHOD, v({ referenceName: 'En blanco', iban: '', bic: '' }))).createPaymentMethod.id;
  const blankIban = async () => (await ok(`query($id: UUID!) { paymentMethods(where: { id: { eq: $id } }) { nodes { iban bic } } }`, { id: blank })).paymentMethods.nodes[0];
  t.same(await blankIban(), { iban: null, bic: null }, 'created with a blank IBAN and BIC: none');
  await ok(UPDATE_METHOD, { v: { id: blank, iban: 'ES9121000418450200051332', bic: 'CAIXESBB' } });
  await ok(UPDATE_METHOD, { v: { id: blank, iban: '  ', bic: '' } });
  t.same(await blankIban(), { iban: null, bic: null }, 'updated to a blank IBAN and BIC: cleared');
  await ok(`mutation($id: UUID!) { deletePaymentMethod(input: { id: $id }) { id } }`, { id: blank });
  await refused(t, 'a deletion of an unknown method', `mutation($id: UUID!) { deletePaymentMethod(input: { id: $id }) { id } }`, { id: unknown }, 'global.businessErrors.sharedSettingNotFound');
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
