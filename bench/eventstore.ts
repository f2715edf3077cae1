/**
 * Event store append throughput: our PostgresEventStore against Emmett's PostgreSQL event store and a
 * raw multi-row INSERT baseline (the physical limit of the server for the same payloads).
 *
 * Every writer appends to its own streams like a command handler would: each stream receives
 * APPENDS_PER_STREAM appends, each with the exact expected revision (the first one creates the stream),
 * then the writer moves on to a new stream. Two modes: 1 event per append, and 10 events per append.
 * For each (mode, writers), every subject gets its own fresh database on the same server and its own
 * pool of writers + 2 connections (so 3 x (writers + 2) connections are open at once), is warmed up,
 * and then the subjects take turns in ~1 s slices until each has had the measured duration. Slicing
 * keeps the comparison fair on machines whose fsync speed drifts (shared VM disks). A CHECKPOINT
 * precedes each block so that no block pays for an earlier one's dirty pages.
 */
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import type { NewEvent } from '../eventstore/port.ts';
import { DatabaseFactory, percentile, postgresCpuSeconds, resultHeader, serverInfo, sleep, withAdmin } from './support.ts';

export interface EventStoreBenchOptions {
  /** Measured time per (mode, writers, subject); default 5000 ms. */
  durationMs?: number;
  /** Unmeasured time before it; default 1000 ms. */
  warmupMs?: number;
  /** Slices the measured time is cut into, subjects taking turns; default: one per second. */
  rounds?: number;
  writerCounts?: number[];
  eventsPerAppend?: number[];
  subjects?: SubjectName[];
  /** Where fresh databases come from; default: CREATE DATABASE on the server of `url` (dropped at the end). */
  freshDatabase?: () => Promise<string>;
  log?: (line: string) => void;
}

export type SubjectName = 'ours' | 'ours-nowake' | 'emmett' | 'raw';

const APPENDS_PER_STREAM = 10;

// ---------------------------------------------------------------------------------------------------
// Payloads: the same for every subject (an accounting entry of ~300 bytes of JSON, ~150 of metadata).

const EVENT_TYPE = 'EntryPosted';

function entryData(): Record<string, unknown> {
  return {
    amount: '123.45',
    account: '4300001',
    lines: [
      { account: '4300001', debit: '123.45', text: 'Invoice 2024-00017 revenue' },
      { account: '1200', credit: '123.45', text: 'Receivable customer 10042' },
    ],
  };
}

function entryMetadata(): NewEvent['metadata'] {
  return {
    organisationId: 'org-7f3c2a',
    userId: 'user-0042',
    correlationId: randomUUID(),
    causationId: randomUUID(),
    schemaVersion: 1,
  };
}

interface BenchEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: NewEvent['metadata'];
}

function makeEvents(n: number): BenchEvent[] {
  const events: BenchEvent[] = new Array(n);
  for (let i = 0; i < n; i++) events[i] = { id: randomUUID(), type: EVENT_TYPE, data: entryData(), metadata: entryMetadata() };
  return events;
}

// ---------------------------------------------------------------------------------------------------
// Subjects

interface Session {
  /** `already` = events the stream holds before this append (0: the append creates the stream). */
  append(streamId: string, events: BenchEvent[], already: number): Promise<void>;
  storedEvents(): Promise<number>;
  close(): Promise<void>;
}

interface Subject {
  name: SubjectName;
  label: string;
  open(url: string, pool: pg.Pool): Promise<Session>;
}

async function openOurs(url: string, pool: pg.Pool, wakeups: boolean): Promise<Session> {
  const store = await PostgresEventStore.open(pool, url);
  if (!wakeups) {
    // Reaches into a private field on purpose: this measures the store minus its wake-up NOTIFY.
    (store as unknown as { wakeups: { appended(): void } }).wakeups.appended = () => {};
  }
  return {
    async append(streamId, events, already) {
      const result = await store.append(streamId, events, already === 0 ? 'no_stream' : BigInt(already - 1));
      if (result.nextExpectedRevision !== BigInt(already + events.length - 1)) {
        throw new Error(`ours: ${streamId} at revision ${result.nextExpectedRevision}, expected ${already + events.length - 1}`);
      }
    },
    storedEvents: () => countRows(pool, 'es_events'),
    close: () => store.close(),
  };
}

const ours: Subject = {
  name: 'ours',
  label: 'PostgresEventStore (ours)',
  open: (url, pool) => openOurs(url, pool, true),
};

/**
 * Diagnostic, not run by default: ours with the post-commit wake-up NOTIFY switched off, to show what
 * it costs. (A NOTIFY transaction gets an xid, so it commits with its own WAL flush, and commits
 * that notify serialise on one global lock.)
 */
const oursNoWake: Subject = {
  name: 'ours-nowake',
  label: 'PostgresEventStore (ours) without wake-up NOTIFY',
  open: (url, pool) => openOurs(url, pool, false),
};

const emmett: Subject = {
  name: 'emmett',
  label: 'Emmett PostgreSQL',
  async open(url, pool) {
    // Our pool goes in (same size as the others); Emmett treats it as ambient and does not end it.
    const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
    // Emmett creates its schema lazily on the first read/append (ensureSchemaExists -> schema.migrate());
    // run that migration now so that it is not timed.
    await store.schema.migrate();
    return {
      async append(streamId, events, already) {
        // Emmett's stream version counts events: 0n = the stream must not exist yet.
        const result = await store.appendToStream(streamId, events, { expectedStreamVersion: BigInt(already) });
        if (result.nextExpectedStreamVersion !== BigInt(already + events.length)) {
          throw new Error(`emmett: ${streamId} at version ${result.nextExpectedStreamVersion}, expected ${already + events.length}`);
        }
      },
      storedEvents: () => countRows(pool, 'emt_messages'),
      close: () => store.close(),
    };
  },
};

const raw: Subject = {
  name: 'raw',
  label: 'raw INSERT baseline',
  async open(_url, pool) {
    await pool.query(`CREATE TABLE raw_events (
      id bigserial PRIMARY KEY, stream_id text, event_id uuid, event_type text, data jsonb, metadata jsonb)`);
    const statements = new Map<number, string>();
    const insertSql = (n: number) => {
      let sql = statements.get(n);
      if (!sql) {
        const rows = Array.from({ length: n }, (_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`);
        sql = `INSERT INTO raw_events (stream_id, event_id, event_type, data, metadata) VALUES ${rows.join(', ')}`;
        statements.set(n, sql);
      }
      return sql;
    };
    return {
      async append(streamId, events) {
        const params: unknown[] = [];
        for (const e of events) params.push(streamId, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
        await pool.query(insertSql(events.length), params);
      },
      storedEvents: () => countRows(pool, 'raw_events'),
      close: async () => {},
    };
  },
};

const SUBJECTS: Record<SubjectName, Subject> = { ours, 'ours-nowake': oursNoWake, emmett, raw };

async function countRows(pool: pg.Pool, table: string): Promise<number> {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0].n as number;
}

// ---------------------------------------------------------------------------------------------------
// Measurement

export interface Measurement {
  subject: SubjectName;
  eventsPerAppend: number;
  writers: number;
  poolMax: number;
  /** Sum of this subject's measured slices. */
  measuredMs: number;
  appends: number;
  events: number;
  appendsPerSec: number;
  eventsPerSec: number;
  /** events/s of each measured slice, in the order run: the spread shows how steady the machine was. */
  sliceEventsPerSec: number[];
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** CPU used during the measured slices, in % of one core: this process, and local postgres processes (null if not visible). */
  cpuPercent: { client: number; server: number | null; machineCores: number };
  /** Events found in the subject's table afterwards = events appended (warm-up included). */
  verified: boolean;
}

interface WriterState {
  stream: number;
  streamId: string;
  appendInStream: number;
}

/** One subject in its own database with its own pool and writers, run slice by slice. */
class SubjectRun {
  private readonly writerStates: WriterState[];
  private appends = 0;
  private events = 0;
  private totalEvents = 0;
  private measuredMs = 0;
  private clientCpuMicros = 0;
  private serverCpuSeconds: number | null = 0;
  private readonly latencies: number[] = [];
  private readonly sliceRates: number[] = [];
  private closed = false;

  private constructor(
    readonly subject: Subject,
    private readonly pool: pg.Pool,
    private readonly session: Session,
    readonly writers: number,
    readonly eventsPerAppend: number,
  ) {
    this.writerStates = Array.from({ length: writers }, (_, w) => ({ stream: 0, streamId: `Ledger-w${w}-s0`, appendInStream: APPENDS_PER_STREAM }));
  }

  static async open(subject: Subject, url: string, writers: number, eventsPerAppend: number): Promise<SubjectRun> {
    const pool = new pg.Pool({ connectionString: url, max: writers + 2, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 60_000 });
    pool.on('error', () => {});
    try {
      const session = await subject.open(url, pool);
      // Open every connection before any clock starts.
      const clients = await Promise.all(Array.from({ length: writers + 2 }, () => pool.connect()));
      clients.forEach((c) => c.release());
      return new SubjectRun(subject, pool, session, writers, eventsPerAppend);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /** Runs all writers for `ms`; a measured slice counts the appends that complete within it. */
  async run(ms: number, measured: boolean): Promise<void> {
    let active = true;
    let failure: unknown;
    let sliceEvents = 0;
    const writer = async (st: WriterState, w: number) => {
      while (active) {
        if (st.appendInStream === APPENDS_PER_STREAM) {
          st.stream++;
          st.streamId = `Ledger-w${w}-s${st.stream}`;
          st.appendInStream = 0;
        }
        const batch = makeEvents(this.eventsPerAppend);
        const t0 = performance.now();
        try {
          await this.session.append(st.streamId, batch, st.appendInStream * this.eventsPerAppend);
        } catch (error) {
          failure ??= error;
          active = false;
          return;
        }
        const t1 = performance.now();
        st.appendInStream++;
        this.totalEvents += this.eventsPerAppend;
        if (measured && active) {
          this.appends++;
          sliceEvents += this.eventsPerAppend;
          this.latencies.push(t1 - t0);
        }
      }
    };
    const clientCpu0 = process.cpuUsage();
    const serverCpu0 = measured ? postgresCpuSeconds() : undefined;
    const start = performance.now();
    const running = this.writerStates.map(writer);
    await sleep(ms);
    active = false;
    const end = performance.now();
    const clientCpu = process.cpuUsage(clientCpu0);
    const serverCpu1 = measured ? postgresCpuSeconds() : undefined;
    await Promise.all(running);
    if (failure) throw failure;
    if (!measured) return;
    this.events += sliceEvents;
    this.measuredMs += end - start;
    this.sliceRates.push(Math.round(sliceEvents / ((end - start) / 1000)));
    this.clientCpuMicros += clientCpu.user + clientCpu.system;
    this.serverCpuSeconds =
      this.serverCpuSeconds === null || serverCpu0 === undefined || serverCpu1 === undefined
        ? null
        : this.serverCpuSeconds + (serverCpu1 - serverCpu0);
  }

  async finish(): Promise<Measurement> {
    const stored = await this.session.storedEvents();
    await this.close();
    const latencies = this.latencies.sort((a, b) => a - b);
    const seconds = this.measuredMs / 1000;
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      subject: this.subject.name,
      eventsPerAppend: this.eventsPerAppend,
      writers: this.writers,
      poolMax: this.writers + 2,
      measuredMs: Math.round(this.measuredMs),
      appends: this.appends,
      events: this.events,
      appendsPerSec: Math.round(this.appends / seconds),
      eventsPerSec: Math.round(this.events / seconds),
      sliceEventsPerSec: this.sliceRates,
      latencyMs: {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies[latencies.length - 1] ?? NaN),
      },
      cpuPercent: {
        client: Math.round((this.clientCpuMicros / 1000 / this.measuredMs) * 100),
        server: this.serverCpuSeconds === null ? null : Math.round((this.serverCpuSeconds / seconds) * 100),
        machineCores: os.cpus().length,
      },
      verified: stored === this.totalEvents,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.session.close();
    } finally {
      await this.pool.end();
    }
  }
}

// ---------------------------------------------------------------------------------------------------

export async function benchEventStore(url: string, options: EventStoreBenchOptions = {}): Promise<object> {
  const durationMs = options.durationMs ?? 5_000;
  const warmupMs = options.warmupMs ?? 1_000;
  // Measured time is split into slices of about a second, at least 200 ms each.
  const rounds = options.rounds ?? Math.max(1, Math.min(Math.round(durationMs / 1_000), Math.floor(durationMs / 200)));
  const writerCounts = options.writerCounts ?? [1, 8, 32];
  const modes = options.eventsPerAppend ?? [1, 10];
  const subjectNames = options.subjects ?? ['ours', 'emmett', 'raw'];
  const unknown = subjectNames.filter((n) => !(n in SUBJECTS));
  if (unknown.length > 0) throw new Error(`unknown subject(s) ${unknown.join(', ')}; known: ${Object.keys(SUBJECTS).join(', ')}`);
  const subjects = subjectNames.map((n) => SUBJECTS[n]);
  const log = options.log ?? ((line: string) => console.error(line));
  const factory = options.freshDatabase ? undefined : new DatabaseFactory(url);
  const freshDatabase = options.freshDatabase ?? (() => factory!.create());

  const startedAt = new Date();
  const server = await serverInfo(url);
  const results: Measurement[] = [];
  try {
    for (const eventsPerAppend of modes) {
      for (const writers of writerCounts) {
        // Flush earlier measurements' dirty pages now rather than in the middle of this block.
        await withAdmin(url, (c) => c.query('CHECKPOINT')).catch(() => {});
        const runs: SubjectRun[] = [];
        try {
          for (const subject of subjects) runs.push(await SubjectRun.open(subject, await freshDatabase(), writers, eventsPerAppend));
          for (const run of runs) await run.run(warmupMs, false);
          // Subjects take turns in short slices (rotating the order each round), so a machine whose
          // speed drifts over seconds (shared VM disks do) affects every subject alike.
          for (let round = 0; round < rounds; round++) {
            for (let i = 0; i < runs.length; i++) await runs[(round + i) % runs.length].run(durationMs / rounds, true);
          }
          for (const run of runs) {
            const m = await run.finish();
            results.push(m);
            log(
              `  ${m.subject.padEnd(11)} ${String(eventsPerAppend).padStart(2)} ev/append ${String(writers).padStart(2)} writers: ` +
                `${m.eventsPerSec} events/s, ${m.appendsPerSec} appends/s, p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, ` +
                `slices ${m.sliceEventsPerSec.join('/')}` + (m.verified ? '' : '  (STORED COUNT MISMATCH)'),
            );
          }
        } finally {
          for (const run of runs) await run.close().catch(() => {});
        }
      }
    }
  } finally {
    await factory?.dropAll();
  }

  const find = (s: SubjectName, mode: number, writers: number) =>
    results.find((r) => r.subject === s && r.eventsPerAppend === mode && r.writers === writers);
  const ratio = (a?: Measurement, b?: Measurement) => (a && b && b.eventsPerSec > 0 ? Math.round((a.eventsPerSec / b.eventsPerSec) * 100) / 100 : null);
  const ratios = modes.flatMap((mode) =>
    writerCounts.map((writers) => ({
      eventsPerAppend: mode,
      writers,
      oursOverEmmett: ratio(find('ours', mode, writers), find('emmett', mode, writers)),
      oursOverRaw: ratio(find('ours', mode, writers), find('raw', mode, writers)),
      emmettOverRaw: ratio(find('emmett', mode, writers), find('raw', mode, writers)),
      ...(subjectNames.includes('ours-nowake')
        ? { oursNoWakeOverOurs: ratio(find('ours-nowake', mode, writers), find('ours', mode, writers)) }
        : {}),
    })),
  );

  return {
    ...resultHeader('eventstore', startedAt, server, ['@event-driven-io/emmett-postgresql', '@event-driven-io/emmett', '@event-driven-io/dumbo']),
    config: {
      durationMs,
      warmupMs,
      rounds,
      sliceMs: durationMs / rounds,
      writerCounts,
      eventsPerAppend: modes,
      appendsPerStream: APPENDS_PER_STREAM,
      poolMax: 'writers + 2',
      payloadBytes: {
        data: JSON.stringify(entryData()).length,
        metadata: JSON.stringify(entryMetadata()).length,
      },
      subjects: Object.fromEntries(subjects.map((s) => [s.name, s.label])),
    },
    results,
    ratios,
  };
}

/** The printed summary of a benchEventStore result. */
export function reportEventStore(result: object): string {
  const r = result as { results: Measurement[]; ratios: Array<Record<string, number | null>>; versions: Record<string, string> };
  const lines: string[] = [];
  const row = (cells: (string | number)[], widths: number[]) =>
    cells.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  const w1 = [9, 7, 11, 10, 10, 8, 8, 10, 10, 8];
  lines.push(row(['ev/append', 'writers', 'subject', 'events/s', 'appends/s', 'p50 ms', 'p99 ms', 'cpu node%', 'cpu pg%', 'verified'], w1));
  lines.push('-'.repeat(w1.reduce((a, b) => a + b + 2, -2)));
  for (const m of r.results) {
    lines.push(
      row(
        [
          m.eventsPerAppend, m.writers, m.subject, m.eventsPerSec, m.appendsPerSec, m.latencyMs.p50, m.latencyMs.p99,
          m.cpuPercent.client, m.cpuPercent.server ?? '-', m.verified ? 'yes' : 'NO',
        ],
        w1,
      ),
    );
  }
  lines.push('');
  const noWake = r.ratios.some((x) => 'oursNoWakeOverOurs' in x);
  const w2 = [9, 7, 12, 12, 12, 18];
  const rowR = (cells: (string | number)[]) => cells.map((c, i) => (i < 2 ? String(c).padEnd(w2[i]) : String(c).padStart(w2[i]))).join('  ');
  const header = ['ev/append', 'writers', 'ours/emmett', 'ours/raw', 'emmett/raw', ...(noWake ? ['ours-nowake/ours'] : [])];
  lines.push(rowR(header));
  lines.push('-'.repeat(w2.slice(0, header.length).reduce((a, b) => a + b + 2, -2)));
  for (const x of r.ratios) {
    lines.push(
      rowR([
        x.eventsPerAppend ?? '', x.writers ?? '', x.oursOverEmmett ?? '-', x.oursOverRaw ?? '-', x.emmettOverRaw ?? '-',
        ...(noWake ? [x.oursNoWakeOverOurs ?? '-'] : []),
      ]),
    );
  }
  lines.push('');
  lines.push(`versions: ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return lines.join('\n');
}
