/**
 * A line's third party (AccountingEntryThirdParty): posted by id it keeps the party's code (pm-067), records the
 * party's id and kind, reads the party's current name and identifiers, and filters by code, id and origin (pm-015..038).
 * Lines stored before the id was recorded (thirdCode holding a code, or the id of entries posted by ids) get it in
 * the projection (entry-third-party-old-lines); the completion reads by id the caller's organisation's parties only.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { loadEmbedded } from '../api/graphql/embedded.ts';
import { LedgerAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { exerciseForDate } from '../domain/accounting/organisation.ts';
import { PartyErrors } from '../domain/parties/errors.ts';
import { AccountingEntryLine } from '../projections/accounting/read-models.ts';
import { accountingEntryThirdParty } from '../projections/accounting/third-party.ts';
import { postOld } from './helpers/old-events.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon, db } = api.service;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const date = `${year}-05-05`;

const customer = await mutate.createCustomer(ctx, { socialName: 'Ferretería Centro S.L.', documentId: 'B12345674', vatNumber: 'ESB12345674', countryAcronym: 'ES' });
const employee = await mutate.createEmployee(ctx, { name: 'Ana Gómez' });
const customerCode = (customer as { code: string }).code;
const employeeCode = (employee as { code: string }).code;

const org = await commands.organisation(api.organisationId);
const accounts = new Map([...org.accounts.values()].map((a) => [a.code, a.id]));
const journalTypeId = [...org.journalTypes.values()].find((j) => j.code === 'GEN')!.id;
/** Posted, then projected (mutate answers before the read models catch up). */
const byIds = async (commandId: string) => {
  const posted = await postByIds(commandId);
  await daemon.waitFor(await store.committedHead!());
  return posted;
};
const postByIds = (commandId: string) =>
  mutate.createAccountingEntryUsingIds({ ...ctx, commandId }, {
    date, journalTypeId, accountingEntryLines: [
      { subAccountId: accounts.get('4300000')!, thirdId: customer.id, debitAmount: '12.00' },
      { subAccountId: accounts.get('4650000')!, thirdId: employee.id, creditAmount: '12.00' },
    ],
  });
const LINES = `query lines($entry: UUID!) { accountingEntryLines(where: { accountingEntryId: { eq: $entry } }, order: [{ order: ASC }]) { edges { node {
  id accountingEntryThirdParty { id code origin thirdPartyId socialName vatNumber documentId countryAcronym viesCode creationDate }
} } } }`;
const thirdParties = async (entry: string) => {
  const r = await api.gql(LINES, { entry });
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.accountingEntryLines.edges.map((e: any) => e.node.accountingEntryThirdParty);
};

t.test("posted by the party's id, a line keeps its code and reads the party (pm-067)", async (t) => {
  const commandId = randomUUID();
  const posted = await byIds(commandId);
  t.same(await byIds(commandId), posted, 'a retry answers as the first call did');
  const [customerLine, employeeLine] = await thirdParties(posted.id);
  t.match(customerLine, {
    code: customerCode, origin: 'CUSTOMER', thirdPartyId: customer.id, socialName: 'Ferretería Centro S.L.', vatNumber: 'ESB12345674', documentId: 'B12345674', countryAcronym: 'ES',
  });
  t.ok(customerLine.id && customerLine.creationDate, 'an id and dates of its own');
  t.match(employeeLine, { code: employeeCode, origin: 'EMPLOYEE', thirdPartyId: employee.id, socialName: 'Ana Gómez', vatNumber: null });
  const { state } = await new AggregateStore(store).load(LedgerAggregate, exerciseForDate(org, date)!.id);
  t.ok(state.thirdCodeUsage.has(customerCode) && !state.thirdCodeUsage.has(customer.id), 'the ledger counts the code');
  const refused = await api.gql(`mutation($v: CustomerDeleteGLDtoInput!) { deleteCustomer(input: $v) { id } }`, { v: { id: customer.id } });
  t.equal(refused.errors?.[0]?.extensions?.code, PartyErrors.partyInUse, 'the party stays guarded');
});

t.test('lines and entries filter by the embedded third party: code, thirdPartyId, origin (pm-015..038)', async (t) => {
  const posted = await byIds(randomUUID());
  const lines = await api.gql(`query($code: String!) { accountingEntryLines(where: { accountingEntryThirdParty: { code: { eq: $code } }, accountingEntryId: { eq: "${posted.id}" } }) { totalCount edges { node { accountingEntryThirdParty { code } } } } }`, { code: customerCode });
  t.same(lines.data?.accountingEntryLines.edges.map((e: any) => e.node.accountingEntryThirdParty.code), [customerCode], JSON.stringify(lines.errors ?? ''));
  const entries = await api.gql(`query($id: UUID!) { accountingEntries(where: { accountingEntryLines: { some: { accountingEntryThirdParty: { origin: { eq: EMPLOYEE }, thirdPartyId: { eq: $id } } } } }) { totalCount } }`, { id: employee.id });
  t.ok(entries.data?.accountingEntries.totalCount >= 1, JSON.stringify(entries.errors ?? ''));
  const none = await api.gql(`{ accountingEntries(where: { accountingEntryLines: { some: { accountingEntryThirdParty: { origin: { eq: SUPPLIER } } } } }) { totalCount } }`);
  t.equal(none.data?.accountingEntries.totalCount, 0, 'no line names a supplier');
  const bad = await api.gql(`{ accountingEntryLines(where: { accountingEntryThirdParty: { socialName: { eq: "x" } } }) { totalCount } }`);
  t.ok(bad.errors?.length, 'only its stored fields filter');
});

t.test('a line stored before (thirdCode holding the id, no thirdPartyId) reads the party by that id', async (t) => {
  // A customer no line posted now names: the ledger can count its id from the old-shaped line alone.
  const named = await mutate.createCustomer(ctx, { socialName: 'Solo Antiguo S.L.' });
  await daemon.waitFor(await store.committedHead!());
  const template = await byIds(randomUUID());
  const oldEntryId = await postOld(api, template.id, date, (line, thirdPartyId) => ({
    ...line, thirdCode: thirdPartyId === customer.id ? named.id : thirdPartyId,
  }));
  const [customerLine, employeeLine] = await thirdParties(oldEntryId);
  t.match(customerLine, { code: (named as { code: string }).code, origin: 'CUSTOMER', thirdPartyId: named.id, socialName: 'Solo Antiguo S.L.' });
  t.match(employeeLine, { code: employeeCode, origin: 'EMPLOYEE', thirdPartyId: employee.id, socialName: 'Ana Gómez' });
  const { state } = await new AggregateStore(store).load(LedgerAggregate, exerciseForDate(org, date)!.id);
  t.ok(state.thirdCodeUsage.has(named.id), "the ledger counts the stored id: the party deletion guard checks code or id");
});

t.test("the completion reads the caller's organisation's parties only", async (t) => {
  const other = await commands.createOrganisation({}, { name: 'Neighbour S.L.', country: 'ES' });
  await daemon.waitFor(other.position);
  const theirs = await mutate.createCustomer({ organisationId: other.id }, { code: customerCode, socialName: 'Vecino S.A.' });
  t.ok(await daemon.waitFor(theirs.position!), 'the read models show their customer');
  const line = (extra: object) => ({ id: randomUUID(), organisationId: api.organisationId, thirdCode: customerCode, ...extra });
  const [byOurId, byTheirId, byCodeAlone] = (await loadEmbedded(db.pool, accountingEntryThirdParty, api.organisationId, [
    line({ thirdPartyId: customer.id.toUpperCase(), thirdPartyOrigin: 'CUSTOMER' }), line({ thirdPartyId: theirs.id, thirdPartyOrigin: 'CUSTOMER' }), line({}),
  ])) as any[];
  t.match(byOurId, { socialName: 'Ferretería Centro S.L.' }, "an id names the caller's party (in either case)");
  t.match(byTheirId, { socialName: null, vatNumber: null }, "another organisation's party is not read");
  t.match(byCodeAlone, { code: customerCode, thirdPartyId: null, socialName: null }, 'a code alone names no party: the projection records the id of a party a line names');
  t.ok(AccountingEntryLine.fields.includes(accountingEntryThirdParty));
});

t.test('an erased party reads as its read model shows it', async (t) => {
  const posted = await byIds(randomUUID());
  const erased = await mutate.applyGdprCustomer(ctx, { id: customer.id });
  // Its own position: the store's head may not show it yet (commits held back behind other transactions).
  t.ok(await daemon.waitFor(erased.position!), 'the read models show the erasure');
  const [customerLine] = await thirdParties(posted.id);
  t.match(customerLine, { code: customerCode, origin: 'CUSTOMER', thirdPartyId: customer.id, socialName: 'Anonymised', vatNumber: null, documentId: null });
});
