/**
 * Nothing acknowledged is ever lost: the service is killed with SIGKILL while entries are being posted,
 * fanned out and delivered, then restarted. Every entry whose mutation was answered is in the books
 * once, and reaches both pull consumers (list/ack across the crash) and the webhook receiver.
 * CRASH_ENTRIES=10000 runs the issue's full scenario; the suite runs a smaller one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { Identity } from '../api/auth/identity.ts';
import { testCommands } from './helpers/commands.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { migrateEventQueue } from '../eventqueue/migrate.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { PROJECTIONS as ACCOUNTING_PROJECTIONS } from '../projections/accounting/projections.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { freshDatabase } from './helpers/database.ts';

const ENTRIES = Number(process.env.CRASH_ENTRIES ?? 400);
const POSTERS = 8; // concurrent clients posting
const db = await freshDatabase(t);

// Set-up in this process: organisation, exercise, user, two OAuth clients with queues.
const store = await PostgresEventStore.open(db.pool, db.url);
await migrateReadModels(db.pool, ACCOUNTING_PROJECTIONS);
const identity = new Identity(db.pool);
await identity.migrate();
await migrateEventQueue(db.pool);
const locks = new OrganisationLocks(db.url);
t.teardown(() => locks.close());
const commands = testCommands(new AggregateStore(store), locks, db.pool);
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

// A webhook receiver that records every delivered entry (duplicates are allowed: at least once).
const delivered = new Set<string>();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    delivered.add(JSON.parse(body).data.entryId);
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
t.teardown(() => receiver.close());
await createTrigger(db.pool, { organisationId, type: 'http-post', url: `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`, events: ['accountingEntry/after.create'] }, { allowLoopback: true });

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
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), DEMO: '0', LOG_LEVEL: 'error', EVENT_LEASE_SECONDS: '2', WEBHOOK_ALLOW_LOOPBACK: '1' },
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
let next = 0;
let restarting: Promise<void> | undefined;
async function poster(): Promise<void> {
  while (next < ENTRIES) {
    const i = next++;
    if (i === Math.floor(ENTRIES / 2) && !restarting) {
      // In-flight requests, a half-applied fan-out and open webhook deliveries die with the process.
      restarting = (async () => {
        child!.kill('SIGKILL');
        await new Promise((r) => child!.once('exit', r));
        await startService();
      })();
    }
    if (restarting) await restarting;
    const id = await postEntry(i);
    if (id) acknowledged.push(id);
    if (i % 50 === 0) await Promise.all(consumers.map(drain));
  }
}
await Promise.all(Array.from({ length: POSTERS }, poster));

t.test('every acknowledged entry is in the books once', async (t) => {
  t.ok(acknowledged.length >= ENTRIES - POSTERS, `${acknowledged.length} of ${ENTRIES} answered`);
  const { rows } = await db.pool.query(`SELECT id FROM accounting_entries WHERE id = ANY($1)`, [acknowledged]);
  t.equal(rows.length, acknowledged.length, 'none lost');
  const numbers = await db.pool.query(`SELECT number FROM accounting_entries WHERE organisation_id = $1 ORDER BY number`, [organisationId]);
  t.same(numbers.rows.map((r) => r.number), numbers.rows.map((_, i) => i + 1), 'numbering still gap-free after the crash');
});

t.test('both consumers receive every acknowledged entry', async (t) => {
  const deadline = Date.now() + 60_000 + ENTRIES * 20;
  // Until every acknowledged entry arrived and the queues are empty: a webhook row goes only after its
  // delivery was answered, and entries committed but never answered (the crash) are delivered too.
  const queued = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0].n as number;
  while (Date.now() < deadline && (consumers.some((c) => acknowledged.some((id) => !c.seen.has(id))) || acknowledged.some((id) => !delivered.has(id)) || (await queued()) > 0)) {
    await Promise.all(consumers.map(drain));
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const c of consumers) {
    const missing = acknowledged.filter((id) => !c.seen.has(id));
    t.same(missing, [], `${c.name}: nothing missing`);
  }
  t.same(acknowledged.filter((id) => !delivered.has(id)), [], 'webhook: nothing missing');
  t.equal(await queued(), 0, 'queues drained: every event acknowledged or delivered');
});
