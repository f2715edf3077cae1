/**
 * The chart upgrade (commands/accounting/chart-upgrade.ts) on an organisation written as an earlier version left
 * it: its stream lacks master chart lines, holds an account of its own under a master code and a master account it
 * deleted. Two processes (each its own core and caches) upgrading it at once append the missing lines once, and
 * neither the organisation's own account nor the deleted one is touched. A pass over every organisation reads them
 * batch by batch. (test/upgrade-in-place.test.ts shows the same on the store 76e5ffb wrote, at start and by the CLI.)
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { organisationBatches, upgradeCharts } from '../commands/accounting/chart-upgrade.ts';
import { decideOrganisation, initialOrganisationState, type OrganisationEvent } from '../domain/accounting/organisation.ts';
import { eventSchemaVersion } from '../eventstore/upcasters.ts';
import { loadConfig } from '../platform/config.ts';
import { openCore } from '../service/core.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const config = { ...loadConfig({}), databaseUrl: db.url, logLevel: 'error' };
const database = { url: db.url, pool: db.pool, close: async () => {} };
// Two processes: opened one after the other (each migrates), then run at once.
const first = await openCore(config, database);
const second = await openCore(config, database);
t.teardown(async () => {
  for (const core of [first, second]) {
    await core.store.close();
    await core.commands.locks.close();
  }
});

const organisationId = randomUUID();
const streamId = `Organisation-${organisationId}`;
const at = '2025-01-01T00:00:00.000Z';
/** Lines the master chart gained after this organisation was created. */
const LACKING = ['4721000', '4771000', '7000001', '7000002'];
const created = decideOrganisation({ type: 'CreateOrganisation', organisationId, name: 'Vieja S.L.', country: 'ES', features: ['CORE', 'ACCOUNTING'], now: at }, initialOrganisationState());
const accountCreated = (code: string) => created.find((e) => e.type === 'AccountingAccountCreated' && e.data.code === code) as Extract<OrganisationEvent, { type: 'AccountingAccountCreated' }>;
const ownAccountId = randomUUID();
const deleted = accountCreated('4771000');
const oldStream: OrganisationEvent[] = [
  ...created.filter((e) => !(e.type === 'AccountingAccountCreated' && LACKING.includes(e.data.code))),
  // The organisation opened 7000001 itself, and 4771000 (as the chart now has it) and deleted it.
  { type: 'AccountingAccountCreated', data: { ...accountCreated('7000001').data, accountId: ownAccountId, name: 'Ventas UE (propia)', createdByUser: true } },
  deleted,
  { type: 'AccountingAccountDeleted', data: { accountId: deleted.data.accountId, code: '4771000', at } },
];
await first.store.append(streamId, oldStream.map((e) => ({
  id: randomUUID(), type: e.type, data: e.data as unknown as Record<string, unknown>, metadata: { organisationId, schemaVersion: eventSchemaVersion(e.type) },
})), 'no_stream');

const codesIn = async () => (await first.store.readStream(streamId, { maxCount: 5_000 }))
  .filter((e) => e.type === 'AccountingAccountCreated').map((e) => e.data as { accountId: string; code: string; name: string });

t.test('two processes upgrading at once install each missing line once, and never the organisation\'s own or deleted code', async (t) => {
  // Both load the old stream first, so both decide on it: one appends, the other's conflict decides again and finds nothing.
  await Promise.all([first.commands.organisation(organisationId), second.commands.organisation(organisationId)]);
  const reports = await Promise.all([first, second].map((core) => upgradeCharts(core.commands, core.store, { organisationId })));
  t.same(reports.flatMap((r) => r.upgraded), [{ organisationId, codes: ['4721000', '7000002'] }], 'one of them installed the two lines the organisation never had');
  t.same(reports.map((r) => r.organisations), [1, 1]);
  const accounts = await codesIn();
  for (const code of LACKING) t.ok(accounts.filter((a) => a.code === code).length <= 1, `${code} at most once in the stream`);
  t.same(accounts.filter((a) => a.code === '7000001'), [{ ...accounts.find((a) => a.code === '7000001'), accountId: ownAccountId, name: 'Ventas UE (propia)' }], 'its own 7000001 is kept as it was');
  t.notOk((await first.commands.organisation(organisationId)).accountIdByCode.has('4771000'), 'the deleted 4771000 is not back');
  const again = await upgradeCharts(second.commands, second.store, { organisationId });
  t.same(again, { organisations: 1, upgraded: [], accounts: 0, failed: [] }, 'run again: nothing');
});

t.test('a pass over every organisation reads them batch by batch, and installs nothing in ones created with the whole chart', async (t) => {
  const others = [];
  for (const country of ['FR', 'GB']) others.push((await first.commands.createOrganisation({}, { name: `Nueva ${country}`, country })).id);
  // (The store reads what every transaction of the cluster begun before has left: a moment after the creations.)
  let batches: string[][] = [];
  for (const started = Date.now(); batches.flat().length < 3 && Date.now() - started < 15_000; await new Promise((r) => setTimeout(r, 50))) {
    batches = [];
    for await (const batch of organisationBatches(first.store, 2)) batches.push(batch);
  }
  t.same(batches, [[organisationId, others[0]], [others[1]]], 'in the order they were created, two at a time');
  t.same(await upgradeCharts(first.commands, first.store), { organisations: 3, upgraded: [], accounts: 0, failed: [] });
});
