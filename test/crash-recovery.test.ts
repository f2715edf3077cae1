/**
 * Nothing acknowledged is ever lost: the service is killed with SIGKILL while entries are being posted
 * and fanned out, then restarted. Every entry whose mutation was answered is in the books once, and
 * reaches both consumers' queues, which drain with list/ack across the crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import t from 'tap';
import { Identity } from '../api/auth/identity.ts';
import { AccountingCommands } from '../commands/accounting.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { migrateEventQueue } from '../eventqueue/migrate.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { ACCOUNTING_PROJECTIONS } from '../projections/accounting.ts';
import { migrateReadModels } from '../projections/schema.ts';
import { freshDatabase } from './helpers/database.ts';

const ENTRIES = 400;
const db = await freshDatabase(t);

// Set-up in this process: organisation, exercise, user, two OAuth clients with queues.
const store = await PostgresEventStore.open(db.pool, db.url);
await migrateReadModels(db.pool, ACCOUNTING_PROJECTIONS);
const identity = new Identity(db.pool);
await identity.migrate();
await migrateEventQueue(db.pool);
const commands = new AccountingCommands(new AggregateStore(store));
const { id: organisationId } = await commands.createOrganisation({}, { name: 'Crash Test SA', country: 'ES' });
const year = new Date().getUTCFullYear();
await commands.createAccountingExercise({ organisationId }, { startDate: `${year}-01-01`, endDate: `${year}-12-31` });
await identity.createUser(organisationId, 'ops@example.com', 'a-long-password', 'admin');
const consumers = await Promise.all(['bank feed', 'tax filing'].map(async (name) => {
  const client = await identity.createClient(name, 'http://127.0.0.1:9/cb', false);
  await createTrigger(db.pool, { organisationId, type: 'event-queue', clientId: client.client_id, events: ['accountingEntry/after.create'] });
  return { name, token: (await identity.issueToken(organisationId, 'ops@example.com', client.client_id, 'full_access')).access_token, seen: new Set<string>() };
}));
await store.close();

const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;
async function startService(): Promise<void> {
  child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), DEMO: '0', LOG_LEVEL: 'error', EVENT_LEASE_SECONDS: '2' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}
t.teardown(() => child?.kill('SIGKILL'));

const mutation = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`;
async function postEntry(i: number): Promise<string | undefined> {
  try {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${consumers[0].token}`, 'X-Site': organisationId },
      body: JSON.stringify({ query: mutation, variables: { v: { date: `${year}-06-01`, journalTypeCode: 'GEN', description: `crash ${i}`, accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1.00' }, { subAccountCode: '1000000', creditAmount: '1.00' }] } } }),
    });
    const body = await res.json();
    return body.data?.createAccountingEntryUsingCodes?.id;
  } catch {
    return undefined; // the service was down: this one was never acknowledged
  }
}

async function drain(consumer: (typeof consumers)[number]): Promise<void> {
  const headers = { Authorization: `Bearer ${consumer.token}` };
  const list = await fetch(`${base}/ia/api/v1/services/delivery/event/list?size=100`, { headers }).then((r) => r.json(), () => undefined);
  const result = list?.['ia::result'];
  if (!result?.ackId) return;
  for (const e of result.events) consumer.seen.add(JSON.parse(Buffer.from(e.payload, 'base64').toString()).data.entryId);
  await fetch(`${base}/ia/api/v1/services/delivery/event/ack`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId: result.ackId }) }).catch(() => {});
}

await startService();
const acknowledged: string[] = [];
let killed = false;
for (let i = 0; i < ENTRIES; i++) {
  if (i === ENTRIES / 2 && !killed) {
    // In-flight requests and a half-applied fan-out die with the process.
    child!.kill('SIGKILL');
    killed = true;
    void postEntry(-1);
    await new Promise((r) => child!.once('exit', r));
    await startService();
  }
  const id = await postEntry(i);
  if (id) acknowledged.push(id);
  if (i % 25 === 0) await Promise.all(consumers.map(drain));
}

t.test('every acknowledged entry is in the books once', async (t) => {
  t.ok(acknowledged.length >= ENTRIES - 2, `${acknowledged.length} of ${ENTRIES} answered`);
  const { rows } = await db.pool.query(`SELECT id FROM accounting_entries WHERE id = ANY($1)`, [acknowledged]);
  t.equal(rows.length, acknowledged.length, 'none lost');
  const numbers = await db.pool.query(`SELECT number FROM accounting_entries WHERE organisation_id = $1 ORDER BY number`, [organisationId]);
  t.same(numbers.rows.map((r) => r.number), numbers.rows.map((_, i) => i + 1), 'numbering still gap-free after the crash');
});

t.test('both consumers receive every acknowledged entry', async (t) => {
  for (let round = 0; round < 200 && consumers.some((c) => acknowledged.some((id) => !c.seen.has(id))); round++) {
    await Promise.all(consumers.map(drain));
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const c of consumers) {
    const missing = acknowledged.filter((id) => !c.seen.has(id));
    t.same(missing, [], `${c.name}: nothing missing`);
  }
  const left = await db.pool.query(`SELECT count(*)::int AS n FROM event_queue`);
  t.equal(left.rows[0].n, 0, 'queues drained: every event acknowledged');
});
