/**
 * Row-level security under the application: even a query with no organisation filter at all, run
 * the way the API runs its reads, returns only the caller organisation's rows.
 */
import t from 'tap';
import { readScoped } from '../api/read-scope.ts';
import { PROJECTIONS } from '../service/start.ts';
import { rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db, commands, daemon, store } = api.service;
const other = await commands.createOrganisation({}, { name: 'Neighbour Ltd', country: 'GB' });
await daemon.waitFor(other.position);

const count = (organisationId: string, table: string) =>
  readScoped(db.pool, organisationId, async (c) => (await c.query(`SELECT count(*)::int AS n, count(DISTINCT organisation_id)::int AS orgs FROM ${table}`)).rows[0]);

t.test('an unfiltered query sees one organisation only', async (t) => {
  for (const p of PROJECTIONS) {
    for (const r of p.resources.filter((r) => r.scope === 'organisation')) {
      const mine = await count(api.organisationId, r.table);
      const theirs = await count(other.id, r.table);
      t.ok(mine.orgs <= 1 && theirs.orgs <= 1, `${r.table}: one organisation per scope`);
    }
  }
  for (const table of ['read_model_counts']) {
    const mine = await count(api.organisationId, table);
    t.ok(mine.n > 0 && mine.orgs === 1, `${table}: the kept counts are scoped too`);
  }
  const all = (await db.pool.query(`SELECT count(*)::int AS n FROM accounting_accounts`)).rows[0].n;
  const mine = (await count(api.organisationId, 'accounting_accounts')).n;
  const theirs = (await count(other.id, 'accounting_accounts')).n;
  t.equal(mine + theirs, all, 'the two scopes partition the table');
  t.ok(mine > 0 && theirs > 0);
});

t.test('no organisation named, no rows; the reader cannot write', async (t) => {
  const none = await readScoped(db.pool, '00000000-0000-0000-0000-000000000000', async (c) => (await c.query('SELECT count(*)::int AS n FROM accounting_entries')).rows[0].n);
  t.equal(none, 0);
  await t.rejects(readScoped(db.pool, api.organisationId, (c) => c.query(`DELETE FROM accounting_entries`)), /permission denied/);
  await t.rejects(readScoped(db.pool, api.organisationId, (c) => c.query(`SELECT count(*) FROM es_events`)), /permission denied/, 'events are not readable by the API role');
});

t.test('isolation survives a rebuild (the swapped tables carry their policies)', async (t) => {
  for (const p of PROJECTIONS) await rebuildProjection(db.pool, store, p);
  const mine = await count(api.organisationId, 'accounting_accounts');
  t.equal(mine.orgs, 1);
  const r = await api.gql(`{ accountingAccounts { totalCount } }`);
  t.equal(r.data.accountingAccounts.totalCount, mine.n, 'the API reads through the same scope');
});
