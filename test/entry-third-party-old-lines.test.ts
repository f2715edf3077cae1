/**
 * Lines stored before postings recorded the third party's id and kind: the entries projection gives them the party
 * their code (or, posted by ids then, their id) named at their place in the event order, and nothing when it named
 * no live party. So an old line never reads a party it did not name (a code taken later, or reused after a
 * deletion), and reads and filters agree on code, thirdPartyId and origin; rebuilt, the tables are the same.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { PartyErrors } from '../domain/parties/errors.ts';
import { PROJECTIONS } from '../projections/accounting/projections.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { deleteCustomerUnguarded, postOld } from './helpers/old-events.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon, db } = api.service;
const ctx = { organisationId: api.organisationId };
const date = `${new Date().getUTCFullYear()}-05-05`;
const head = async () => daemon.waitFor(await store.committedHead!());

const org = await commands.organisation(api.organisationId);
const accounts = new Map([...org.accounts.values()].map((a) => [a.code, a.id]));
const journalTypeId = [...org.journalTypes.values()].find((j) => j.code === 'GEN')!.id;
const customer = await mutate.createCustomer(ctx, { socialName: 'Original S.L.', code: 'ORIG1' });

/** An entry posted now (one line naming `party` by id), then copied as an older version stored it. */
async function postedBefore(party: { id: string }, old: (line: Record<string, unknown>, thirdPartyId: unknown) => Record<string, unknown>) {
  const template = await mutate.createAccountingEntryUsingIds({ ...ctx, commandId: randomUUID() }, { date, journalTypeId, accountingEntryLines: [
    { subAccountId: accounts.get('4300000')!, thirdId: party.id, debitAmount: '12.00' },
    { subAccountId: accounts.get('7000000')!, creditAmount: '12.00' },
  ] });
  await head();
  return postOld(api, template.id, date, (line, id) => (line.thirdCode ? old(line, id) : line));
}

const thirdParty = async (entry: string) => {
  const r = await api.gql(`query($entry: UUID!) { accountingEntryLines(where: { accountingEntryId: { eq: $entry } }, order: [{ order: ASC }]) { edges { node {
    accountingEntryThirdParty { code origin thirdPartyId socialName vatNumber } } } } }`, { entry });
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.accountingEntryLines.edges[0].node.accountingEntryThirdParty;
};
/** How many of the entry's lines a filter on the embedded third party finds. */
const filtered = async (entry: string, where: string) => {
  const r = await api.gql(`{ accountingEntryLines(where: { accountingEntryId: { eq: "${entry}" }, accountingEntryThirdParty: { ${where} } }) { totalCount } }`);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.accountingEntryLines.totalCount;
};

t.test('free text naming no party, whose code a customer takes later, reads no party', async (t) => {
  const entry = await postedBefore(customer, (line) => ({ ...line, thirdCode: 'FREE1' }));
  const newcomer = await mutate.createCustomer(ctx, { socialName: 'Newcomer S.A.', code: 'FREE1', vatNumber: 'ESB12345674', countryAcronym: 'ES' });
  await head();
  t.same(await thirdParty(entry), { code: 'FREE1', origin: null, thirdPartyId: null, socialName: null, vatNumber: null });
  t.equal(await filtered(entry, `thirdPartyId: { eq: "${newcomer.id}" }`), 0, "not in the newcomer's ledger");
  t.equal(await filtered(entry, `origin: { eq: CUSTOMER }`), 0);
  t.equal(await filtered(entry, `code: { eq: "FREE1" }`), 1, 'its text still filters');
});

t.test('a line naming a party deleted since, whose code another took, is not the newcomer', async (t) => {
  const gone = await mutate.createCustomer(ctx, { socialName: 'Gone S.L.', code: 'REUSE1' });
  await head();
  const entry = await postedBefore(gone, (line) => ({ ...line, thirdCode: 'REUSE1' }));
  await deleteCustomerUnguarded(api, { id: gone.id, code: 'REUSE1' });
  const newcomer = await mutate.createCustomer(ctx, { socialName: 'Newcomer Two S.A.', code: 'REUSE1', vatNumber: 'ESB12345674', countryAcronym: 'ES' });
  await head();
  t.same(await thirdParty(entry), { code: 'REUSE1', origin: 'CUSTOMER', thirdPartyId: gone.id, socialName: null, vatNumber: null }, 'the party it named, gone');
  t.equal(await filtered(entry, `thirdPartyId: { eq: "${newcomer.id}" }`), 0, "not in the newcomer's ledger");
  t.equal(await filtered(entry, `thirdPartyId: { eq: "${gone.id}" }`), 1);
});

t.test('an old line posted by ids (thirdCode holding the id) reads and filters by code, thirdPartyId and origin', async (t) => {
  const entry = await postedBefore(customer, (line, id) => ({ ...line, thirdCode: String(id).toUpperCase() }));
  t.same(await thirdParty(entry), { code: 'ORIG1', origin: 'CUSTOMER', thirdPartyId: customer.id, socialName: 'Original S.L.', vatNumber: null });
  t.equal(await filtered(entry, `code: { eq: "ORIG1" }`), 1, 'by code');
  t.equal(await filtered(entry, `thirdPartyId: { eq: "${customer.id}" }`), 1, 'by thirdPartyId');
  t.equal(await filtered(entry, `origin: { eq: CUSTOMER }`), 1, 'by origin');
});

t.test('an old line naming a party by its id in upper case keeps that party from being deleted', async (t) => {
  const named = await mutate.createCustomer(ctx, { socialName: 'Upper S.L.', code: 'UPPER1' });
  await head();
  // (The template names another party: only the old line names this one.)
  await postedBefore(customer, (line) => ({ ...line, thirdCode: named.id.toUpperCase() }));
  const refused = await api.gql(`mutation($v: CustomerDeleteGLDtoInput!) { deleteCustomer(input: $v) { id } }`, { v: { id: named.id } });
  t.equal(refused.errors?.[0]?.extensions?.code, PartyErrors.partyInUse, `the party stays guarded ${JSON.stringify(refused.errors ?? refused.data)}`);
});

t.test('an old line posted by code filters by thirdPartyId and origin', async (t) => {
  const entry = await postedBefore(customer, (line) => ({ ...line, thirdCode: 'ORIG1' }));
  t.match(await thirdParty(entry), { code: 'ORIG1', origin: 'CUSTOMER', thirdPartyId: customer.id, socialName: 'Original S.L.' });
  t.equal(await filtered(entry, `thirdPartyId: { eq: "${customer.id}" }`), 1, 'by thirdPartyId');
  t.equal(await filtered(entry, `origin: { eq: CUSTOMER }`), 1, 'by origin');
  const entries = await api.gql(`{ accountingEntries(where: { id: { eq: "${entry}" }, accountingEntryLines: { some: { accountingEntryThirdParty: { thirdPartyId: { eq: "${customer.id}" } } } } }) { totalCount } }`);
  t.equal(entries.data?.accountingEntries.totalCount, 1, `entries by a line's third party ${JSON.stringify(entries.errors ?? '')}`);
});

t.test('rebuilt, the entries read models equal the live ones', async (t) => {
  await head();
  const entries = PROJECTIONS.find((p) => p.name === 'entries')!;
  const live = await Promise.all(entries.resources.map((r) => checksum(db.pool, r.table)));
  t.ok(entries.resources.some((r) => r.table === 'accounting_third_party_references'), 'its parties table too');
  // Small batches on worker threads: party events and postings fall in different batches and slices.
  t.same(await rebuildProjection(db.pool, store, entries, undefined, { batchSize: 2, workers: 2, workerSliceEvents: 1 }), live, 'event by event');
  // One batch applied at once: a line is resolved against the parties as they stood at its posting, not at the batch's end.
  t.same(await rebuildProjection(db.pool, store, entries, undefined, { workers: 0 }), live, 'all at once');
});
