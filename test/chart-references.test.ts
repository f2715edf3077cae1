/**
 * An account or journal type a payment method, a product, a party or another account refers to is not
 * deleted: the deletion is refused (naming what uses it) and appends nothing, also when both are asked for
 * at the same time (in two processes: chart-references-processes.test.ts).
 */
import t from 'tap';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { ok, refused } = graphqlAnswers(api);

const CREATE_METHOD = `mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`;
const UPDATE_METHOD = `mutation($v: PaymentMethodUpdateGLDtoInput!) { updatePaymentMethod(input: $v) { id } }`;
const CREATE_PRODUCT = `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`;
const UPDATE_PRODUCT = `mutation($v: ProductUpdateGLDtoInput!) { updateProduct(input: $v) { id } }`;
const DELETE_ACCOUNT = `mutation($id: UUID!) { deleteAccountingAccount(input: { id: $id }) { id } }`;
const DELETE_JOURNAL = `mutation($id: UUID!) { deleteJournalType(input: { id: $id }) { id } }`;

let n = 0;
const newAccount = async (prefix: string) => (await ok(`mutation($c: String!) { createAccountingAccount(input: { code: $c, name: "Cuenta" }) { id } }`, { c: `${prefix}${String(++n).padStart(3, '0')}` })).createAccountingAccount.id;
const newJournal = async () => (await ok(`mutation($c: String!) { createJournalType(input: { code: $c, name: "Banco", type: FINANCIAL }) { id } }`, { c: `BN${++n}` })).createJournalType.id;

t.test("a payment method's journal type and sub-account are not deleted", async (t) => {
  const account = await newAccount('5720');
  const journal = await newJournal();
  const method = (await ok(CREATE_METHOD, { v: { referenceName: 'Banco X', type: 'BANK_ACCOUNT', journalTypeId: journal, subAccountId: account } })).createPaymentMethod.id;
  await refused(t, 'its journal type', DELETE_JOURNAL, { id: journal }, 'accounting.businessErrors.journalTypeReferenced');
  await refused(t, 'its sub-account', DELETE_ACCOUNT, { id: account }, 'accounting.businessErrors.accountReferenced');
  t.match((await api.gql(DELETE_ACCOUNT, { id: account })).errors[0].message, /Banco X/, 'the refusal names the method');

  // Moved to other ones by an update, the former ones are free again and the new ones held.
  const [account2, journal2] = [await newAccount('5720'), await newJournal()];
  await ok(UPDATE_METHOD, { v: { id: method, journalTypeId: journal2, subAccountId: account2 } });
  await ok(DELETE_JOURNAL, { id: journal });
  await ok(DELETE_ACCOUNT, { id: account });
  await refused(t, 'its new sub-account', DELETE_ACCOUNT, { id: account2 }, 'accounting.businessErrors.accountReferenced');
  await ok(`mutation($id: UUID!) { deletePaymentMethod(input: { id: $id }) { id } }`, { id: method });
  await ok(DELETE_JOURNAL, { id: journal2 });
  await ok(DELETE_ACCOUNT, { id: account2 });
});

t.test("a product's sales and purchase accounts are not deleted", async (t) => {
  const [sales, purchase] = [await newAccount('7000'), await newAccount('6000')];
  const product = (await ok(CREATE_PRODUCT, { v: { code: 'REF-1', name: 'Ref', salesAccountingAccountId: sales, purchaseAccountId: purchase } })).createProduct.id;
  await refused(t, 'its sales account', DELETE_ACCOUNT, { id: sales }, 'accounting.businessErrors.accountReferenced');
  await refused(t, 'its purchase account', DELETE_ACCOUNT, { id: purchase }, 'accounting.businessErrors.accountReferenced');
  t.match((await api.gql(DELETE_ACCOUNT, { id: sales })).errors[0].message, /REF-1/, 'the refusal names the product');
  await ok(UPDATE_PRODUCT, { v: { id: product, salesAccountingAccountId: null } });
  await ok(DELETE_ACCOUNT, { id: sales });
  await refused(t, 'its purchase account, still', DELETE_ACCOUNT, { id: purchase }, 'accounting.businessErrors.accountReferenced');
});

t.test("a payment mean's accounting account is not deleted", async (t) => {
  const account = await newAccount('5720');
  await ok(`mutation($a: UUID!) { createPaymentMean(input: { description: "Remesa", code: "REM", accountingAccountId: $a }) { id } }`, { a: account });
  await refused(t, 'its account', DELETE_ACCOUNT, { id: account }, 'accounting.businessErrors.accountReferenced');
  t.match((await api.gql(DELETE_ACCOUNT, { id: account })).errors[0].message, /REM/, 'the refusal names the mean');
});

t.test("a customer's and a supplier's default accounts are not deleted", async (t) => {
  const [receivable, prepayment, expense] = [await newAccount('4300'), await newAccount('4380'), await newAccount('6290')];
  const customer = (await ok(`mutation($a: UUID!, $p: UUID!) { createCustomer(input: { socialName: "Cliente Ref", code: "CREF1", defaultAccountingAccountId: $a, defaultPrepaymentAccountingAccountId: $p }) { id } }`, { a: receivable, p: prepayment })).createCustomer.id;
  await refused(t, 'its default account', DELETE_ACCOUNT, { id: receivable }, 'accounting.businessErrors.accountReferenced');
  await refused(t, 'its prepayment account', DELETE_ACCOUNT, { id: prepayment }, 'accounting.businessErrors.accountReferenced');
  t.match((await api.gql(DELETE_ACCOUNT, { id: receivable })).errors[0].message, /CREF1/, 'the refusal names the customer');
  await ok(`mutation($v: SupplierCreateGLDtoInput!) { createSupplier(input: $v) { id } }`, { v: { socialName: 'Proveedor Ref', defaultExpenseAccountingAccountId: expense } });
  await refused(t, "a supplier's expense account", DELETE_ACCOUNT, { id: expense }, 'accounting.businessErrors.accountReferenced');

  // Cleared by an update, the account is free; the one the update leaves is still held.
  await ok(`mutation($id: UUID!) { updateCustomer(input: { id: $id, defaultAccountingAccountId: null }) { id } }`, { id: customer });
  await ok(DELETE_ACCOUNT, { id: receivable });
  await refused(t, 'the prepayment account the update left', DELETE_ACCOUNT, { id: prepayment }, 'accounting.businessErrors.accountReferenced');
  await ok(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: customer });
  await ok(DELETE_ACCOUNT, { id: prepayment });
});

t.test('an account another account or a journal type names is not deleted', async (t) => {
  const [closing, transitional] = [await newAccount('1290'), await newAccount('4390')];
  const naming = (await ok(`mutation($c: UUID!, $p: UUID!) { createAccountingAccount(input: { code: "1299001", name: "Nombra", yearEndClosingAccountId: $c, transitionalPrepaymentAccountId: $p }) { id } }`, { c: closing, p: transitional })).createAccountingAccount.id;
  await refused(t, 'its year-end closing account', DELETE_ACCOUNT, { id: closing }, 'accounting.businessErrors.accountReferenced');
  await refused(t, 'its transitional prepayment account', DELETE_ACCOUNT, { id: transitional }, 'accounting.businessErrors.accountReferenced');
  t.match((await api.gql(DELETE_ACCOUNT, { id: closing })).errors[0].message, /1299001/, 'the refusal names the account');
  await ok(`mutation($id: UUID!) { updateAccountingAccount(input: { id: $id, yearEndClosingAccountId: null }) { id } }`, { id: naming });
  await ok(DELETE_ACCOUNT, { id: closing });
  await ok(DELETE_ACCOUNT, { id: naming });
  await ok(DELETE_ACCOUNT, { id: transitional });

  const account = await newAccount('5720');
  const journal = (await ok(`mutation($a: UUID!) { createJournalType(input: { code: "BJT", name: "Banco", type: FINANCIAL, accountingAccountId: $a }) { id } }`, { a: account })).createJournalType.id;
  await refused(t, "a journal type's account", DELETE_ACCOUNT, { id: account }, 'accounting.businessErrors.accountReferenced');
  await ok(DELETE_JOURNAL, { id: journal });
  await ok(DELETE_ACCOUNT, { id: account });
});

t.test('a deletion and a new reference asked for together: one of them is refused', async (t) => {
  for (let i = 0; i < 5; i++) {
    const account = await newAccount('5720');
    const journal = await newJournal();
    const [made, deletedAccount, deletedJournal] = await Promise.all([
      api.gql(CREATE_METHOD, { v: { referenceName: `Carrera ${i}`, journalTypeId: journal, subAccountId: account } }),
      api.gql(DELETE_ACCOUNT, { id: account }),
      api.gql(DELETE_JOURNAL, { id: journal }),
    ]);
    if (made.errors) continue;
    t.ok(deletedAccount.errors && deletedJournal.errors, `round ${i}: the method was made, so neither deletion went through`);
  }
  const account = await newAccount('7000');
  const [product, deleted] = await Promise.all([
    api.gql(CREATE_PRODUCT, { v: { code: 'RACE', name: 'Race', salesAccountingAccountId: account } }),
    api.gql(DELETE_ACCOUNT, { id: account }),
  ]);
  t.ok(Boolean(product.errors) !== Boolean(deleted.errors), 'the product or the deletion, not both');
});
