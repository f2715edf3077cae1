/**
 * PostgreSQL adapter of the event store port.
 *
 * An append is one SQL statement (one round trip, its own transaction): a CTE moves the stream's
 * revision in `es_streams` under the expected-state condition, and the events are inserted only if it
 * did. Concurrent appenders to one stream serialise on that row; appenders to different streams never
 * wait on each other. Readers order by (transaction_id, global_position) and only read transactions
 * older than the oldest one still running, so no later commit can land behind a reader.
 */
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  LIMITS,
  START,
  WrongExpectedRevision,
  streamCategory,
  type AppendResult,
  type AuditChain,
  type BatchHandler,
  type EventFilter,
  type EventStore,
  type ExpectedState,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type StoredBatch,
  type Subscription,
  type SubscriptionOptions,
} from '../port.ts';
import { withMigrationLock } from '../../platform/database.ts';
import { COPY_BATCH_COLUMNS, copyBatchInfo } from './copy-batch.ts';
import { EVENT_STORE_DDL } from './schema.ts';
import { postgresChain } from './chain.ts';
import { assertStorableJson } from '../../platform/storable-text.ts';
import { pollingSubscription } from './subscription.ts';
import { upcastEvent } from '../upcasters.ts';
import { Wakeups } from './wakeups.ts';

/**
 * An event as EventRow has it. JSON goes as stored, for the driver to parse: a cast to text would cost
 * the server two more conversions of each value (about 2 µs an event, more than the rest of the row).
 */
const COLUMNS = `event_id AS id, event_type AS type, stream_id AS "streamId", stream_revision::text AS revision,
  transaction_id::text AS commit, global_position::text AS prepare,
  (extract(epoch FROM date_trunc('milliseconds', recorded_at)) * 1000)::bigint::text AS "recordedAt",
  data, metadata`;

/** The stream-revision move for each expected state; $1 stream, $2 event count, $3 expected revision. */
function reserveSql(expected: ExpectedState): string {
  if (expected === 'any') {
    return `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
            ON CONFLICT (stream_id) DO UPDATE SET revision = es_streams.revision + $2::bigint RETURNING revision`;
  }
  if (expected === 'no_stream') {
    return `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
            ON CONFLICT (stream_id) DO NOTHING RETURNING revision`;
  }
  if (expected === 'stream_exists') {
    return `UPDATE es_streams SET revision = revision + $2::bigint WHERE stream_id = $1 RETURNING revision`;
  }
  return `UPDATE es_streams SET revision = revision + $2::bigint WHERE stream_id = $1 AND revision = (SELECT expected_revision FROM args) RETURNING revision`;
}

/**
 * The append statement for `count` events: the stream's revision moves, then its events go in, each as
 * plain parameters ($4.. four per event). Arrays of them would cost escaping every event's JSON here
 * and parsing the array literal there, for nothing. Named (so prepared once per connection) up to
 * PREPARED_APPEND_EVENTS events.
 */
function appendSql(expected: ExpectedState, count: number): { name?: string; text: string } {
  const name = `es_append_${typeof expected === 'bigint' ? 'revision' : expected}_${count}`;
  if (count > PREPARED_APPEND_EVENTS) return { text: appendStatement(expected, count) };
  let statement = appendStatements.get(name);
  if (statement === undefined) appendStatements.set(name, (statement = { name, text: appendStatement(expected, count) })); // (bounded: 4 states x 16 counts)
  return statement;
}
const appendStatements = new Map<string, { name: string; text: string }>();

function appendStatement(expected: ExpectedState, count: number): string {
  const events = Array.from({ length: count }, (_, i) => `($${4 * i + 4}::uuid, $${4 * i + 5}::text, $${4 * i + 6}::json, $${4 * i + 7}::json, ${i + 1})`);
  // `expected_revision` is referenced by one variant only; declaring it here types $3 for all of them.
  return `WITH args AS (SELECT $3::bigint AS expected_revision),
    reserved AS (${reserveSql(expected)})
    INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
    SELECT $1, reserved.revision - $2 + e.ord, e.id, e.type, e.data, e.meta
    FROM reserved, (VALUES ${events.join(', ')}) AS e(id, type, data, meta, ord)
    ORDER BY e.ord
    RETURNING stream_revision, transaction_id::text AS commit, global_position AS prepare`;
}

/** Appends of up to this many events run as statements prepared once per connection; longer ones are planned each time. */
const PREPARED_APPEND_EVENTS = 16;

/** The filter's conditions; `bind` makes the SQL for a list of names (a parameter, or literals where none can be). */
function filterSql(filter: EventFilter | undefined, bind: (names: readonly string[]) => string): string {
  let sql = '';
  if (filter?.eventTypes) sql += ` AND event_type = ANY(${bind(filter.eventTypes)})`;
  if (filter?.categories) sql += ` AND split_part(stream_id, '-', 1) = ANY(${bind(filter.categories)})`;
  return sql;
}

const parameter = (params: unknown[]) => (names: readonly string[]) => `$${params.push(names)}::text[]`;
const literals = (names: readonly string[]) => `ARRAY[${names.map((n) => pg.escapeLiteral(n)).join(', ')}]::text[]`;

/**
 * Events after a position in global order, only from transactions older than every one still running
 * (none of those can commit below what a reader has passed), with the filter's conditions and the order.
 */
function readAllFrom(commit: string, prepare: string, filter: string): string {
  return `(transaction_id, global_position) > (${commit}, ${prepare})
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()) ${filter}
    ORDER BY transaction_id, global_position`;
}

/** An event as the PostgreSQL store reads it: numbers as text, for toRecorded to parse; JSON parsed by the driver. */
interface EventRow {
  id: string;
  type: string;
  streamId: string;
  revision: string;
  commit: string;
  prepare: string;
  /** Milliseconds since 1970-01-01 UTC. */
  recordedAt: string;
  data: RecordedEvent['data'];
  metadata: RecordedEvent['metadata'];
}

function toRecorded(s: EventRow): RecordedEvent {
  return upcastEvent({
    id: s.id,
    type: s.type,
    data: s.data,
    metadata: s.metadata,
    streamId: s.streamId,
    revision: BigInt(s.revision),
    position: rowPosition(s),
    recordedAt: new Date(Number(s.recordedAt)),
  });
}

const rowPosition = (s: EventRow): GlobalPosition => ({ commit: BigInt(s.commit), prepare: BigInt(s.prepare) });

const UNIQUE_VIOLATION = '23505';

export class PostgresEventStore implements EventStore {
  private readonly wakeups: Wakeups;
  readonly chain: AuditChain;

  private constructor(
    readonly pool: pg.Pool,
    connectionString: string,
  ) {
    this.wakeups = new Wakeups(pool, connectionString);
    this.chain = postgresChain(pool);
  }

  static async open(pool: pg.Pool, connectionString: string): Promise<PostgresEventStore> {
    await migrate(pool);
    return new PostgresEventStore(pool, connectionString);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    if (events.length === 0 || events.length > LIMITS.maxEventsPerAppend) {
      throw new RangeError(`an append carries 1 to ${LIMITS.maxEventsPerAppend} events, got ${events.length}`);
    }
    if (streamCategory(streamId) === '' || streamId.length > 200) throw new RangeError(`bad stream id: ${streamId}`);
    const datas = events.map((e) => JSON.stringify(e.data));
    const metas = events.map((e) => JSON.stringify(e.metadata));
    // json keeps \u0000 and lone surrogates where jsonb and text refuse them: refuse them here, before they
    // are stored for good and stop every projection that meets them.
    assertStorableJson(streamId, datas);
    assertStorableJson(streamId, metas);
    const params: unknown[] = [streamId, events.length, typeof expected === 'bigint' ? expected.toString() : null];
    events.forEach((e, i) => params.push(e.id, e.type, datas[i], metas[i]));
    try {
      // Named: prepared once per connection, then only executed (planning was half an append's cost).
      const { rows } = await this.pool.query({ ...appendSql(expected, events.length), values: params });
      if (rows.length === 0) {
        const retried = await this.alreadyAppended(streamId, events);
        if (retried) return retried;
        throw new WrongExpectedRevision(streamId, expected, await this.currentRevision(streamId));
      }
      this.wakeups.appended();
      const last = rows[rows.length - 1];
      return {
        nextExpectedRevision: BigInt(last.stream_revision),
        position: { commit: BigInt(last.commit), prepare: BigInt(last.prepare) },
      };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      // A concurrent appender won the race for the stream's revision row, or these event ids exist.
      const retried = await this.alreadyAppended(streamId, events);
      if (retried) return retried;
      if ((error as { constraint?: string }).constraint === 'es_events_event_id_key') {
        throw new Error(`event ids already used by other appends to ${streamId} or another stream`);
      }
      throw new WrongExpectedRevision(streamId, expected, await this.currentRevision(streamId));
    }
  }

  /** Idempotent retry: the very same events already sit, in order, at the end of a run in this stream. */
  private async alreadyAppended(streamId: string, events: readonly NewEvent[]): Promise<AppendResult | undefined> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY stream_revision`,
      [events.map((e) => e.id)],
    );
    if (rows.length !== events.length) return undefined;
    const sameRun = rows.every(
      (r, i) => r.streamId === streamId && r.id === events[i].id &&
        (i === 0 || BigInt(r.revision) === BigInt(rows[i - 1].revision) + 1n),
    );
    if (!sameRun) return undefined;
    const last = rows[rows.length - 1];
    return { nextExpectedRevision: BigInt(last.revision), position: rowPosition(last) };
  }

  async findEvent(eventId: string): Promise<RecordedEvent | undefined> {
    const { rows } = await this.pool.query<EventRow>({ name: 'es_find_event', text: `SELECT ${COLUMNS} FROM es_events WHERE event_id = $1`, values: [eventId] });
    return rows[0] ? toRecorded(rows[0]) : undefined;
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.pool.query(`SELECT revision FROM es_streams WHERE stream_id = $1`, [streamId]);
    return rows.length === 0 ? 'no_stream' : BigInt(rows[0].revision);
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}) {
    const maxCount = Math.min(options.maxCount ?? LIMITS.maxReadCount, LIMITS.maxReadCount);
    const { rows } = await this.pool.query<EventRow>({
      name: 'es_read_stream',
      text: `SELECT ${COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision LIMIT $3`,
      values: [streamId, (options.fromRevision ?? 0n).toString(), maxCount],
    });
    return rows.map(toRecorded);
  }

  /** Every event of a stream, page by page (aggregates are loaded whole). */
  async readWholeStream(streamId: string): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await this.readStream(streamId, { fromRevision: BigInt(all.length), maxCount: LIMITS.maxReadCount });
      all.push(...page);
      if (page.length < LIMITS.maxReadCount) return all;
    }
  }

  async readAll(from: GlobalPosition, options: ReadAllOptions): Promise<RecordedEvent[]> {
    const params: unknown[] = [from.commit.toString(), from.prepare.toString(), Math.min(options.maxCount, LIMITS.maxReadCount)];
    const { rows } = await this.pool.query<EventRow>({
      name: `es_read_all_${options.filter?.eventTypes ? 't' : ''}${options.filter?.categories ? 'c' : ''}`,
      text: `SELECT ${COLUMNS} FROM es_events WHERE ${readAllFrom('$1::xid8', '$2::bigint', filterSql(options.filter, parameter(params)))} LIMIT $3`,
      values: params,
    });
    return rows.map(toRecorded);
  }

  async readAllStored(from: GlobalPosition, options: ReadAllOptions): Promise<StoredBatch | undefined> {
    // COPY takes no parameters: the values are written into the statement (numbers as numbers, names quoted).
    const condition = readAllFrom(`'${BigInt(from.commit)}'::xid8`, `${BigInt(from.prepare)}::bigint`, filterSql(options.filter, literals));
    const limit = Math.min(options.maxCount, LIMITS.maxReadCount);
    if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`maxCount: a whole number from 1`);
    const client = await this.pool.connect();
    const chunks: Buffer[] = [];
    try {
      const copy = client.query(copyTo(`COPY (SELECT ${COPY_BATCH_COLUMNS} FROM es_events WHERE ${condition} LIMIT ${limit}) TO STDOUT (FORMAT binary)`));
      for await (const chunk of copy) chunks.push(chunk as Buffer);
      client.release();
    } catch (error) {
      client.release(error as Error); // (a connection a COPY failed on is not reused)
      throw error;
    }
    const data = Buffer.concat(chunks);
    const info = copyBatchInfo(data);
    return info && { format: 'postgres-copy-binary', data, ...info };
  }

  async headPosition(): Promise<GlobalPosition> {
    const { rows } = await this.pool.query(
      `SELECT transaction_id::text AS commit, global_position AS prepare FROM es_events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return rows.length === 0 ? START : { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  }

  /** Last committed event matching `filter`, ignoring the read horizon (what a catch-up must reach). */
  committedHead(filter?: EventFilter): Promise<GlobalPosition> {
    return postgresCommittedHead(this.pool, filter);
  }

  subscribeToAll(options: SubscriptionOptions, handler: BatchHandler): Subscription {
    return pollingSubscription(
      {
        readAll: (from, o) => this.readAll(from, o),
        committedHead: (filter) => this.committedHead(filter),
        onWake: (cb) => this.wakeups.onWake(cb),
      },
      options,
      handler,
    );
  }

  async close(): Promise<void> {
    await this.wakeups.close();
  }
}

/** The last committed event matching `filter`, ignoring the read horizon (START when none): for whoever holds only the pool. */
export async function postgresCommittedHead(db: pg.Pool | pg.PoolClient, filter?: EventFilter): Promise<GlobalPosition> {
  const params: unknown[] = [];
  const { rows } = await db.query(
    `SELECT transaction_id::text AS commit, global_position AS prepare FROM es_events WHERE TRUE ${filterSql(filter, parameter(params))}
     ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    params,
  );
  return rows.length === 0 ? START : { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
}

export async function migrate(pool: pg.Pool): Promise<void> {
  await withMigrationLock(pool, 'es_migrate', (client) => client.query(EVENT_STORE_DDL).then(() => undefined));
}
