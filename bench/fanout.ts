/**
 * Event queue throughput: fan-out (domain events into trigger queues, the `fanout` daemon from START)
 * and pull consumption (list size=1000 + ack until empty), with a raw baseline measured in the same run:
 * a bare INSERT of the same queue rows into an unindexed table.
 *
 * Seeding appends N events shaped like AccountingEntryPosted straight through the event store into one
 * organisation's ledger stream (fan-out only reads what the catalog needs), with two event-queue
 * triggers and one http-post trigger (disabled: no dispatcher runs), so each event becomes 3 queue rows.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { acknowledge, listBatch } from '../eventqueue/queue.ts';
import { createTrigger } from '../eventqueue/triggers.ts';
import type { EventStore, NewEvent } from '../eventstore/port.ts';
import { ProjectionDaemon } from '../projections/engine/daemon.ts';
import { latencySummary, resultHeader, serverInfo, sleep, table } from './support.ts';
import { withBenchCore } from './core.ts';

export interface FanoutBenchOptions {
  freshDatabase: () => Promise<string>;
  events?: number; // default 50,000
  rate?: number; // queue-lag run: events per second, default 1,000
  lagSeconds?: number; // queue-lag run: duration, default 10
}

const STREAMS = 8;

async function measureQueueLag(pool: pg.Pool, store: EventStore, organisationId: string, rate: number, seconds: number) {
  const daemon = new ProjectionDaemon(pool, store, [fanoutProjection]);
  await daemon.start();
  const streams = Array.from({ length: STREAMS }, () => ({ id: `Ledger-${randomUUID()}` }));
  const lags: number[] = [];
  const pending: Promise<void>[] = [];
  const total = rate * seconds;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const stream = streams[i % STREAMS];
    pending.push((async () => {
      const event: NewEvent = {
        id: randomUUID(), type: 'AccountingEntryPosted', metadata: { organisationId, schemaVersion: 1 },
        data: { exerciseId: stream.id.slice(7), entryId: randomUUID(), number: i + 1, date: '2026-03-15', lines: [], at: new Date().toISOString() },
      };
      // Open loop: appends to one stream may overlap, so they take any revision.
      const appended = await store.append(stream.id, [event], 'any');
      const t0 = performance.now();
      await daemon.waitFor(appended.position, 30_000);
      lags.push(performance.now() - t0);
    })());
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  await daemon.stop();
  return { targetRate: rate, achievedRate: Math.round(total / elapsed), lagMs: latencySummary(lags) };
}

export async function benchFanout(adminUrl: string, options: FanoutBenchOptions): Promise<object> {
  const total = options.events ?? 50_000;
  const startedAt = new Date();
  const url = await options.freshDatabase();
  return withBenchCore(url, async (core, pool) => {
    const { commands, identity, store } = core;
    const org = await commands.createOrganisation({}, { name: 'Fan-out Bench SA', country: 'FR' });
    const organisationId = org.id;
    const clients = [];
    await identity.createUser(organisationId, 'bench@example.com', 'a-long-password', 'admin');
    for (const name of ['consumer A', 'consumer B']) {
      const client = await identity.createClient(name, 'http://127.0.0.1:9/cb', false);
      await createTrigger(pool, { organisationId, type: 'event-queue', clientId: client.client_id, events: ['accountingEntry/after.create'] });
      clients.push(client.client_id);
    }
    const hook = await createTrigger(pool, { organisationId, type: 'http-post', url: 'https://93.184.216.34/hook', events: ['accountingEntry/after.create'] });
    await pool.query(`UPDATE triggers SET disabled_at = now(), disabled_reason = 'benchmark' WHERE id = $1`, [hook.id]);

    // Seed.
    const streamId = `Ledger-${randomUUID()}`;
    const at = new Date().toISOString();
    const seedStarted = performance.now();
    for (let n = 0; n < total; n += 1000) {
      const batch: NewEvent[] = Array.from({ length: Math.min(1000, total - n) }, (_, i) => ({
        id: randomUUID(),
        type: 'AccountingEntryPosted',
        data: { exerciseId: streamId.slice(7), entryId: randomUUID(), number: n + i + 1, date: '2026-03-15', description: `bench ${n + i}`, lines: [{ subAccountId: randomUUID(), debitAmount: '10.00', creditAmount: '0.00' }, { subAccountId: randomUUID(), debitAmount: '0.00', creditAmount: '10.00' }], at },
        metadata: { organisationId, schemaVersion: 1 },
      }));
      await store.append(streamId, batch, n === 0 ? 'no_stream' : BigInt(n - 1));
    }
    const seedMs = performance.now() - seedStarted;
    await pool.query('VACUUM ANALYZE es_events');

    // Fan-out from the beginning.
    const fanStarted = performance.now();
    const daemon = new ProjectionDaemon(pool, store, [fanoutProjection]);
    await daemon.start();
    await daemon.caughtUp; // (start waits a bounded while only)
    const fanMs = performance.now() - fanStarted;
    await daemon.stop();
    const rows = (await pool.query(`SELECT count(*)::int AS n FROM event_queue`)).rows[0].n;
    if (rows !== total * 3) throw new Error(`fan-out wrote ${rows} rows, expected ${total * 3}`);

    // Raw baseline: the same rows, one bare INSERT per 1,000 events, no indexes, no triggers to match.
    await pool.query(`CREATE TABLE raw_queue (trigger_id uuid, event_id uuid, payload jsonb)`);
    const payloads = (await pool.query(`SELECT payload::text AS p FROM event_queue LIMIT 1000`)).rows.map((r) => r.p);
    const rawStarted = performance.now();
    for (let n = 0; n < total * 3; n += 1000) {
      await pool.query(`INSERT INTO raw_queue SELECT gen_random_uuid(), gen_random_uuid(), p::jsonb FROM unnest($1::text[]) AS p`, [payloads]);
    }
    const rawMs = performance.now() - rawStarted;

    // Pull consumption of one queue: list 1,000, ack, until empty.
    const owner = { organisationId, clientId: clients[0] };
    const consumeStarted = performance.now();
    let consumed = 0;
    for (;;) {
      const batch = await listBatch(pool, owner, 1000, 60);
      if (!batch.ackId) break;
      const ack = await acknowledge(pool, owner, batch.ackId);
      if (ack.status !== 'success') throw new Error(`ack ${ack.status}`);
      consumed += batch.events.length;
    }
    const consumeMs = performance.now() - consumeStarted;
    if (consumed !== total) throw new Error(`consumed ${consumed}, expected ${total}`);

    // Queue lag at a steady rate: events appended open-loop at RATE/s (8 streams, as 8 ledgers would),
    // each timed from its append returning to the fan-out daemon having queued it.
    const lag = await measureQueueLag(pool, store, organisationId, options.rate ?? 1000, options.lagSeconds ?? 10);

    return {
      ...resultHeader('fanout', startedAt, await serverInfo(adminUrl)),
      queueLag: lag,
      events: total,
      queuesPerEvent: 3,
      seeding: { ms: Math.round(seedMs), eventsPerSec: Math.round(total / (seedMs / 1000)) },
      fanout: { ms: Math.round(fanMs), eventsPerSec: Math.round(total / (fanMs / 1000)), queueRowsPerSec: Math.round((total * 3) / (fanMs / 1000)) },
      rawInsert: { ms: Math.round(rawMs), rowsPerSec: Math.round((total * 3) / (rawMs / 1000)) },
      fanoutOverRaw: Number(((total * 3) / fanMs / ((total * 3) / rawMs)).toFixed(2)),
      listAck: { ms: Math.round(consumeMs), eventsPerSec: Math.round(total / (consumeMs / 1000)), batchSize: 1000 },
    };
  });
}

export function reportFanout(result: object): string {
  const r = result as any;
  return table(['measure', 'value'], [
    ['events (x3 queues)', r.events],
    ['fan-out events/s', r.fanout.eventsPerSec],
    ['fan-out queue rows/s', r.fanout.queueRowsPerSec],
    ['raw INSERT rows/s', r.rawInsert.rowsPerSec],
    ['fan-out / raw', r.fanoutOverRaw],
    ['list+ack events/s (1,000 per batch)', r.listAck.eventsPerSec],
    [`queue lag at ${r.queueLag.targetRate}/s (achieved ${r.queueLag.achievedRate}/s) p50 ms`, r.queueLag.lagMs.p50],
    ['queue lag p99 ms', r.queueLag.lagMs.p99],
  ]);
}
