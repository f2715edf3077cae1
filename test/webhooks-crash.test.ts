/**
 * Webhooks are at-least-once across a crash: the service is killed with SIGKILL while deliveries are in
 * flight (the receiver holds them unanswered) and entries keep being posted while it is down. After the
 * restart every event reaches the receiver with a 2xx, the ones in flight at the crash again, and the
 * queue drains.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
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

const ENTRIES = 120;
const db = await freshDatabase(t);
// The helper's DROP DATABASE ... WITH (FORCE) can hit pooled connections still closing: not a test failure.
db.pool.on('error', () => {});
const store = await PostgresEventStore.open(db.pool, db.url);
t.teardown(() => store.close());
await migrateReadModels(db.pool, ACCOUNTING_PROJECTIONS);
await new Identity(db.pool).migrate();
await migrateEventQueue(db.pool);
const locks = new OrganisationLocks(db.url);
t.teardown(() => locks.close());
const commands = testCommands(new AggregateStore(store), locks, db.pool);
const { id: organisationId } = await commands.createOrganisation({}, { name: 'Webhook Crash SL', country: 'ES' });
const year = new Date().getUTCFullYear();
await commands.createAccountingExercise({ organisationId }, { startDate: `${year}-01-01`, endDate: `${year}-12-31` });

// The receiver: holds the first requests unanswered (in flight when the service dies), then answers 200.
let holding = true;
const held: string[] = [];
const delivered = new Map<string, number>(); // event id -> 2xx answers
const verified: boolean[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    verified.push(verify(Buffer.concat(chunks).toString(), req.headers as Record<string, string>));
    if (holding) {
      held.push(id);
      return; // never answered
    }
    delivered.set(id, (delivered.get(id) ?? 0) + 1);
    res.end('ok');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  server.closeAllConnections();
  server.close();
});
const hook = await createTrigger(db.pool, { organisationId, type: 'http-post', url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, events: ['accountingEntry/after.create'] }, { allowLoopback: true });
const webhook = new Webhook(hook.secret!);
function verify(body: string, headers: Record<string, string>): boolean {
  try {
    webhook.verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
let child: ChildProcess | undefined;
async function startService(): Promise<void> {
  child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    env: {
      ...process.env, DATABASE_URL: db.url, PORT: String(port), DEMO: '0', LOG_LEVEL: 'error',
      WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_POLL_MS: '50', WEBHOOK_BACKOFF_SECONDS: '0.2', WEBHOOK_TIMEOUT_MS: '60000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}
t.teardown(() => child?.kill('SIGKILL'));

const post = (i: number) => commands.createAccountingEntryUsingCodes({ organisationId }, {
  date: `${year}-03-03`, journalTypeCode: 'GEN', description: `crash ${i}`,
  accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1.00' }, { subAccountCode: '1000000', creditAmount: '1.00' }],
});
async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const started = Date.now(); !(await probe()); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

await startService();
for (let i = 0; i < ENTRIES / 2; i++) await post(i);
await until('deliveries in flight', () => held.length >= 4);
child!.kill('SIGKILL');
await new Promise((r) => child!.once('exit', r));
const inFlightAtCrash = [...new Set(held)];
for (let i = ENTRIES / 2; i < ENTRIES; i++) await post(i); // while the service is down
holding = false;
// The dead process's leases would lapse on their own (attempt timeout x rounds + 30 s); end them now.
await db.pool.query(`UPDATE event_queue SET leased_until = now() - interval '1 second' WHERE leased_until > now()`);
await startService();

t.test('every event is delivered after the crash, the ones in flight again', async (t) => {
  const { rows } = await db.pool.query(`SELECT event_id FROM es_events WHERE event_type = 'AccountingEntryPosted'`);
  const all = rows.map((r) => r.event_id as string);
  t.equal(all.length, ENTRIES);
  await until('every event delivered', () => all.every((id) => delivered.has(id)));
  t.same(all.filter((id) => !delivered.has(id)), [], 'none lost');
  t.ok(inFlightAtCrash.length >= 4);
  t.ok(inFlightAtCrash.every((id) => delivered.has(id)), 'the deliveries cut by the crash were sent again');
  await until('queue drained', async () => (await db.pool.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0].n === 0);
  t.ok(verified.every(Boolean), `all ${verified.length} requests carried a valid signature`);
  const log = await db.pool.query(`SELECT count(DISTINCT event_id)::int AS n FROM webhook_deliveries WHERE trigger_id = $1 AND status_code = 200`, [hook.id]);
  t.equal(log.rows[0].n, ENTRIES, 'the delivery log records a success for each');
});
