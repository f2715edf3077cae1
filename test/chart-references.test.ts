/**
 * An account or journal type a payment method or a product refers to is not deleted: the deletion is
 * refused (naming what uses it) and appends nothing, also when both are asked for at the same time.
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
