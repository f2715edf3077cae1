/**
 * An id in a mutation's input names the same record in any case (issue 15, item 10): reads take
 * `7B3F...` through PostgreSQL's uuid type, so writes must too. Ids are compared as text in the
 * aggregates, hence taken in lower case at the input boundary.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();

/** The data of a query or mutation expected to succeed. */
const ok = async (query: string, variables?: object) => (await api.gql(query, variables)).data;

const journal = (await ok(`{ journalTypes(where: { code: { eq: "VEN" } }) { nodes { id } } }`)).journalTypes.nodes[0].id;
const [customerAccount, salesAccount] = (await ok(`{ accountingAccounts(where: { code: { in: ["4300001", "7000000"] } }, order: [{ code: ASC }]) { nodes { id } } }`)).accountingAccounts.nodes.map((n: { id: string }) => n.id);
const customer = (await ok(`mutation { createCustomer(input: { socialName: "Mayúsculas S.L." }) { id } }`)).createCustomer.id;

t.test('an entry posted by ids in upper case names the same journal, accounts and party', async (t) => {
  const r = await api.gql(`mutation($v: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $v) { id } }`, {
    v: {
      date: `${year}-02-05`, journalTypeId: journal.toUpperCase(),
      accountingEntryLines: [{ subAccountId: salesAccount.toUpperCase(), creditAmount: '5' }, { subAccountId: customerAccount.toUpperCase(), thirdId: customer.toUpperCase(), debitAmount: '5' }],
    },
  });
  t.equal(r.errors, undefined, JSON.stringify(r.errors));
  const lines = await ok(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { journalType { id } accountingEntryLines { subAccount { id } } } } }`, { id: r.data.createAccountingEntryUsingIds.id });
  t.equal(lines.accountingEntries.nodes[0].journalType.id, journal);
  const refused = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: customer.toUpperCase() });
  t.equal(refused.errors?.[0]?.extensions?.code, 'global.businessErrors.partyInUse', 'the party named in upper case guards its deletion');
});

t.test('updates and deletions by an id in upper case act on the record', async (t) => {
  const updated = await api.gql(`mutation($id: UUID!) { updateAccountingAccount(input: { id: $id, name: "Ventas (renamed)" }) { id } }`, { id: salesAccount.toUpperCase() });
  t.equal(updated.errors, undefined, JSON.stringify(updated.errors));
  t.equal(updated.data.updateAccountingAccount.id, salesAccount, 'answered with the canonical id');
  const read = await ok(`query($id: UUID!) { accountingAccounts(where: { id: { eq: $id } }) { nodes { name } } }`, { id: salesAccount });
  t.equal(read.accountingAccounts.nodes[0].name, 'Ventas (renamed)');
  const spare = (await ok(`mutation { createCustomer(input: { socialName: "Borrable S.L." }) { id } }`)).createCustomer.id;
  const deleted = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: spare.toUpperCase() });
  t.equal(deleted.errors, undefined, JSON.stringify(deleted.errors));
  t.equal((await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { totalCount } }`, { id: spare })).customers.totalCount, 0);
});
