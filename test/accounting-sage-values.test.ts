/**
 * The accounting enums carry Sage's values (issue 17): inputs take them as Sage's clients send them and refuse
 * our first ones with a coded error; events stored with our first values (written straight into es_events,
 * as a store of the previous version holds them) read with Sage's through the API.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { LedgerAggregate, OrganisationAggregate } from '../commands/accounting/aggregates.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { exerciseForDate } from '../domain/accounting/organisation.ts';
import type { GlobalPosition } from '../eventstore/port.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon, db } = api.service;
const ctx = { organisationId: api.organisationId };

const CREATE_ACCOUNT = `mutation($v: AccountingAccountCreateGLDtoInput!) { createAccountingAccount(input: $v) { id } }`;
const CREATE_JOURNAL_TYPE = `mutation($v: JournalTypeCreateGLDtoInput!) { createJournalType(input: $v) { id } }`;

t.test("inputs take Sage's values, as its sample collection sends them (pm-055)", async (t) => {
  const account = await api.gql(CREATE_ACCOUNT, { v: { code: '6290901', name: 'Otros gastos', description: '', accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' } });
  t.equal(account.errors, undefined);
  const journal = await api.gql(CREATE_JOURNAL_TYPE, { v: { code: 'BN2', name: 'Banco 2', type: 'FINANCIAL' } });
  t.equal(journal.errors, undefined);
  const read = await api.gql(`{ accountingAccounts(where: { code: { eq: "6290901" } }) { nodes { accountLevel accountType subAccountType } }
    journalTypes(where: { code: { eq: "BN2" } }) { nodes { type } } }`);
  t.same(read.data.accountingAccounts.nodes, [{ accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' }]);
  t.same(read.data.journalTypes.nodes, [{ type: 'FINANCIAL' }]);
});

t.test('our first values are refused with a coded error, and nothing changes', async (t) => {
  const before = await api.eventCount();
  const refusals = [
    [CREATE_ACCOUNT, { code: '6290902', name: 'X', accountType: 'EXPENSE' }],
    [CREATE_ACCOUNT, { code: '6290903', name: 'X', subAccountType: 'GENERAL' }],
    [CREATE_ACCOUNT, { code: '6290904', name: 'X', accountLevel: 'CLASS' }],
    [CREATE_JOURNAL_TYPE, { code: 'BN3', name: 'X', type: 'BANK' }],
    [CREATE_JOURNAL_TYPE, { code: 'BN4', name: 'X', type: 'GENERAL', creditNoteReason: 'RETURN' }],
  ] as const;
  for (const [mutation, v] of refusals) {
    const r = await api.gql(mutation, { v });
    t.equal(r.errors?.[0]?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED', JSON.stringify(v));
    t.match(r.errors?.[0]?.message, /EXPENSE|GENERAL|CLASS|BANK|RETURN/, 'the message names the value');
  }
  t.equal(await api.eventCount(), before);
});

/** Appends one event as the previous version stored it: straight into es_events, at the stream's next revision, marked `schemaVersion`. */
async function storedAsBefore(streamId: string, type: string, data: object, schemaVersion: number): Promise<GlobalPosition> {
  const [template] = await store.readStream(streamId, { maxCount: 1 });
  const { rows: [inserted] } = await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, $3, $4, $5 FROM moved
     RETURNING transaction_id::text AS commit, global_position::text AS prepare`,
    [streamId, randomUUID(), type, JSON.stringify(data), JSON.stringify({ ...template.metadata, causationId: randomUUID(), schemaVersion })],
  );
  return { commit: BigInt(inserted.commit), prepare: BigInt(inserted.prepare) };
}

t.test('events stored with our first values read with Sage\'s through the API', async (t) => {
  const at = new Date().toISOString();
  const orgStream = AggregateStore.streamId(OrganisationAggregate.category, api.organisationId);
  const account = (code: string, accountLevel: string, accountType: string, subAccountType: string) => ({
    accountId: randomUUID(), at, code, name: `Old ${code}`, description: null, accountLevel, accountType, subAccountType, applyVat: false,
    createdByUser: true, exportAccountNumber: null, exportAutomaticAccount: false, includedEurForGermany: false, taxonomy: null,
    deactivated: false, yearEndClosingAccountId: null, transitionalPrepaymentAccountId: null, taxTreatmentId: null,
  });
  await storedAsBefore(orgStream, 'AccountingAccountCreated', account('8', 'CLASS', 'OFF_BALANCE', 'GENERAL'), 1);
  await storedAsBefore(orgStream, 'AccountingAccountCreated', account('80', 'GROUP', 'EQUITY', 'GENERAL'), 1);
  await storedAsBefore(orgStream, 'AccountingAccountCreated', account('6290911', 'SUB_ACCOUNT', 'EXPENSE', 'GENERAL'), 1);
  const supplier = account('4000911', 'SUB_ACCOUNT', 'LIABILITY', 'SUPPLIER');
  await storedAsBefore(orgStream, 'AccountingAccountCreated', supplier, 1);
  await storedAsBefore(orgStream, 'AccountingAccountUpdated', { accountId: supplier.accountId, changes: { accountType: 'ASSET', subAccountType: 'VAT_DEDUCTIBLE' }, at }, 1);
  const journalTypeId = randomUUID();
  await storedAsBefore(orgStream, 'JournalTypeCreated', { journalTypeId, at, code: 'OLD', name: 'Old bank', type: 'BANK', isCreditNote: false, creditNoteReason: null, accountingAccountId: null, deactivated: false }, 1);
  await storedAsBefore(orgStream, 'JournalTypeUpdated', { journalTypeId, changes: { type: 'SALES_CREDIT_NOTE', isCreditNote: true, creditNoteReason: 'RETURN' }, at }, 1);

  // An entry posted now, stored again as version 2 (before Sage's values) with our first entry and source types.
  const date = `${new Date().getUTCFullYear()}-04-04`;
  const template = await mutate.createAccountingEntryUsingCodes(ctx, {
    date, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '7.00' }, { subAccountCode: '7000000', creditAmount: '7.00' }],
  });
  const exercise = exerciseForDate(await commands.organisation(api.organisationId), date)!;
  const ledgerStream = AggregateStore.streamId(LedgerAggregate.category, exercise.id);
  const [posted] = (await store.readStream(ledgerStream)).filter((e) => e.data.entryId === template.id);
  const oldEntryId = randomUUID();
  const last = await storedAsBefore(ledgerStream, 'AccountingEntryPosted', {
    ...posted.data, entryId: oldEntryId, number: (posted.data.number as number) + 1, entryType: 'STANDARD', sourceType: 'API',
    lines: (posted.data.lines as object[]).map((l) => ({ ...l, lineId: randomUUID() })),
  }, 2);
  t.ok(await daemon.waitFor(last), 'projected');

  const r = await api.gql(`{ accountingAccounts(where: { code: { in: ["8", "80", "6290911", "4000911"] } }, order: [{ code: ASC }]) { nodes { code accountLevel accountType subAccountType } }
    journalTypes(where: { code: { eq: "OLD" } }) { nodes { type isCreditNote creditNoteReason } }
    accountingEntries(where: { id: { eq: "${oldEntryId}" } }) { nodes { entryType sourceType } } }`);
  t.equal(r.errors, undefined);
  t.same(r.data.accountingAccounts.nodes, [
    { code: '4000911', accountLevel: 'SUB_ACCOUNT', accountType: 'BALANCE_SHEET', subAccountType: 'INPUT_TAX' },
    { code: '6290911', accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' },
    { code: '8', accountLevel: 'GROUP', accountType: 'ECPN', subAccountType: 'UNDEFINED' },
    { code: '80', accountLevel: 'SUB_GROUP', accountType: 'BALANCE_SHEET', subAccountType: 'CAPITAL' },
  ]);
  t.same(r.data.journalTypes.nodes, [{ type: 'SALES_INVOICE', isCreditNote: true, creditNoteReason: 'R1' }]);
  t.same(r.data.accountingEntries.nodes, [{ entryType: 'GENERAL', sourceType: 'PUBLIC_API' }]);
});

t.test("an account's nature outlives its old accountType, and old GENERAL, OFF_BALANCE and credit-note journals read by it (review of issue 17)", async (t) => {
  const at = new Date().toISOString();
  const orgStream = AggregateStore.streamId(OrganisationAggregate.category, api.organisationId);
  const account = (code: string, accountType: string, subAccountType: string) => ({
    accountId: randomUUID(), at, code, name: `Old ${code}`, description: null, accountLevel: 'SUB_ACCOUNT', accountType, subAccountType, applyVat: false,
    createdByUser: true, exportAccountNumber: null, exportAutomaticAccount: false, includedEurForGermany: false, taxonomy: null,
    deactivated: false, yearEndClosingAccountId: null, transitionalPrepaymentAccountId: null, taxTreatmentId: null,
  });
  const liability = account('4100921', 'LIABILITY', 'SUPPLIER');
  const expense = account('6290921', 'EXPENSE', 'SUPPLIER');
  const offBalance = account('8000921', 'OFF_BALANCE', 'GENERAL');
  for (const a of [liability, expense, offBalance]) await storedAsBefore(orgStream, 'AccountingAccountCreated', a, 1);
  await storedAsBefore(orgStream, 'AccountingAccountUpdated', { accountId: expense.accountId, changes: { subAccountType: 'GENERAL' }, at }, 1);
  const journalTypeId = randomUUID();
  const last = await storedAsBefore(orgStream, 'JournalTypeCreated', { journalTypeId, at, code: 'ABX', name: 'Abonos', type: 'SALES_CREDIT_NOTE', isCreditNote: false, creditNoteReason: 'CORRECTION', accountingAccountId: null, deactivated: false }, 1);
  const made = await mutate.createAccountingAccount(ctx, { code: '9990921', name: 'Outside the chart', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' });
  t.ok(await daemon.waitFor(last), 'projected');

  const state = await commands.organisation(api.organisationId);
  const read = (id: string) => state.accounts.get(id)!;
  t.equal(read(liability.accountId).nature, 'LIABILITY', 'an old LIABILITY account is a liability');
  t.equal(read(made.id).nature, 'EXPENSE', 'a new account outside the chart takes the nature of its sub-type CHARGE');
  t.same([read(expense.accountId).subAccountType, read(offBalance.accountId).accountType], ['CHARGE', 'ECPN'], 'the fold');
  const r = await api.gql(`{ accountingAccounts(where: { code: { in: ["6290921", "8000921"] } }, order: [{ code: ASC }]) { nodes { code accountType subAccountType } }
    journalTypes(where: { code: { eq: "ABX" } }) { nodes { type isCreditNote creditNoteReason } } }`);
  t.same(r.data.accountingAccounts.nodes, [
    { code: '6290921', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' },
    { code: '8000921', accountType: 'ECPN', subAccountType: 'UNDEFINED' },
  ], 'an old GENERAL update of an expense reads CHARGE; an ES off-balance account ECPN');
  t.same(r.data.journalTypes.nodes, [{ type: 'SALES_INVOICE', isCreditNote: true, creditNoteReason: 'R4' }], 'an old credit-note journal type stays a credit-note journal; an ordinary correction is R4');
});

t.test('a new off-balance account sent UNDEFINED reads UNDEFINED, in the fold and the read model alike (review of issue 17)', async (t) => {
  const sent = await mutate.createAccountingAccount(ctx, { code: '8990001', name: 'Estadística', accountType: 'UNDEFINED', subAccountType: 'STATISTICAL_BALANCE' });
  const updated = await mutate.createAccountingAccount(ctx, { code: '8990002', name: 'Estadística 2', accountType: 'UNDEFINED', subAccountType: 'UNDEFINED' });
  const last = await mutate.updateAccountingAccount(ctx, { id: updated.id, subAccountType: 'STATISTICAL_BALANCE' });
  t.ok(await daemon.waitFor(last.position!), 'projected');
  const state = await commands.organisation(api.organisationId);
  t.same([sent.id, updated.id].map((id) => [state.accounts.get(id)!.accountType, state.accounts.get(id)!.nature]), [['UNDEFINED', 'OFF_BALANCE'], ['UNDEFINED', 'OFF_BALANCE']], 'the fold');
  const r = await api.gql(`{ accountingAccounts(where: { code: { in: ["8990001", "8990002"] } }, order: [{ code: ASC }]) { nodes { accountType subAccountType } } }`);
  t.same(r.data.accountingAccounts.nodes, [
    { accountType: 'UNDEFINED', subAccountType: 'STATISTICAL_BALANCE' },
    { accountType: 'UNDEFINED', subAccountType: 'STATISTICAL_BALANCE' },
  ], 'the read model: what was sent, also after an update of the sub-type alone');
});
