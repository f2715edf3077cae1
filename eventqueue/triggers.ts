/** Trigger definitions: event-queue triggers (pull, per OAuth client) and http-post webhooks. */
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { BusinessError, Errors } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { START, comparePositions, parsePosition, type EventStore, type GlobalPosition } from '../eventstore/port.ts';
import { inTransaction } from '../platform/database.ts';
import { backfillTrigger, lockFanoutCheckpoint } from './backfill.ts';
import { postgresCommittedHead } from '../eventstore/postgres/store.ts';
import { KNOWN_FILTERS } from './catalog.ts';
import { TargetRefused, resolveTarget, type Resolver } from './webhooks/target.ts';

export const TRIGGER_LIMITS = Object.freeze({ maxPerOrganisation: 100, maxUrlLength: 2000 });

export interface TriggerInput {
  organisationId: string;
  type: 'event-queue' | 'http-post';
  clientId?: string;
  url?: string;
  events?: string[];
  /**
   * Where its queue starts (exclusive): 'now' (the default: the events after the store's head at creation),
   * 'beginning' (the organisation's whole history) or a position. The fan-out holds to it whenever it runs.
   */
  from?: TriggerStart;
}

export type TriggerStart = 'now' | 'beginning' | GlobalPosition;

export interface TriggerOptions {
  /**
   * The event store: 'now' starts after its last committed event (committed, not only visible: an event
   * committed before the trigger is never its first), and an earlier start is backfilled from it (see
   * backfill.ts). Default: the PostgreSQL store's head read through the pool, and no earlier start.
   */
  store?: Pick<EventStore, 'readAll' | 'headPosition' | 'committedHead'>;
  /** A webhook's target is vetted at creation as at delivery (WEBHOOK_ALLOW_LOOPBACK lets loopback through). */
  allowLoopback?: boolean;
  resolver?: Resolver;
}

export interface Trigger {
  id: string;
  organisationId: string;
  type: 'event-queue' | 'http-post';
  clientId: string | null;
  url: string | null;
  events: string[];
  /** The position after which its queue receives events (COMMIT/PREPARE). */
  startsAfter: string;
  createdAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
}

const invalid = (field: string, reason: string) => new BusinessError(Errors.invalidInput, { field, reason });

/** Standard Webhooks secrets: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A `from` as a client writes it: "now", "beginning" or COMMIT/PREPARE (absent: "now"). */
export function parseTriggerStart(from: unknown): TriggerStart {
  if (from === undefined || from === null || from === 'now') return 'now';
  if (from === 'beginning') return 'beginning';
  if (typeof from === 'string' && /^\d{1,20}\/\d{1,20}$/.test(from)) return parsePosition(from);
  throw invalid('from', 'now, beginning or a position COMMIT/PREPARE');
}

async function startOf(from: TriggerStart | undefined, store: TriggerOptions['store'], pool: pg.Pool): Promise<GlobalPosition> {
  if (from === 'beginning') return START;
  if (from !== undefined && from !== 'now') return from;
  if (!store) return postgresCommittedHead(pool);
  return store.committedHead ? store.committedHead() : store.headPosition();
}

export async function createTrigger(pool: pg.Pool, input: TriggerInput, options: TriggerOptions = {}): Promise<{ id: string; secret?: string }> {
  const events = input.events ?? [];
  const unknown = events.filter((e) => !KNOWN_FILTERS.includes(e));
  if (unknown.length) throw invalid('events', `unknown ${unknown.join(', ')}; known: ${KNOWN_FILTERS.join(', ')}`);
  if (input.type === 'event-queue' && !input.clientId) throw invalid('clientId', 'an event-queue trigger names the OAuth client whose queue receives the events');
  if (input.type === 'http-post') {
    if (!input.url || input.url.length > TRIGGER_LIMITS.maxUrlLength) throw invalid('url', `an http(s) URL of at most ${TRIGGER_LIMITS.maxUrlLength} characters`);
    // The delivery-time check, here too: a private target is refused when created, not only when an event
    // is due. Delivery checks again (DNS can change in between).
    try {
      await resolveTarget(input.url, options);
    } catch (error) {
      if (error instanceof TargetRefused) throw invalid('url', error.message);
      throw error;
    }
  }
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM triggers WHERE organisation_id = $1`, [input.organisationId]);
  if (rows[0].n >= TRIGGER_LIMITS.maxPerOrganisation) throw invalid('type', `at most ${TRIGGER_LIMITS.maxPerOrganisation} triggers per organisation`);
  const id = randomUUID();
  const secret = input.type === 'http-post' ? newWebhookSecret() : undefined;
  const start = await startOf(input.from, options.store, pool);
  try {
    await inTransaction(pool, async (client) => {
      // An earlier start than the fan-out's is backfilled; 'now' never is (no lock on the fan-out then).
      const now = input.from === undefined || input.from === 'now';
      const fanoutAt = now ? START : await lockFanoutCheckpoint(client);
      // 'now' where positions are transaction ids (the PostgreSQL store): this statement's snapshot, which
      // an append in flight meanwhile is not in, though it commits below the head read above (schema.ts).
      const snapshot = now && (!options.store || options.store.committedHead) ? 'pg_current_snapshot()' : 'NULL';
      await client.query(`INSERT INTO triggers (id, organisation_id, type, client_id, url, secret, events, starts_after_commit, starts_after_prepare, starts_at_snapshot)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::xid8, $9, ${snapshot})`, [
        id, input.organisationId, input.type, input.type === 'event-queue' ? input.clientId : null, input.type === 'http-post' ? input.url : null, secret ?? null, events,
        start.commit.toString(), start.prepare.toString(),
      ]);
      if (comparePositions(start, fanoutAt) >= 0) return;
      if (!options.store) throw invalid('from', 'a start before the fan-out needs the event store');
      await backfillTrigger(client, options.store, { id, organisationId: input.organisationId }, start, fanoutAt);
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw invalid('clientId', 'this client already has an event queue in this organisation');
    if ((error as { code?: string }).code === '23503') throw invalid('clientId', 'unknown client');
    throw error;
  }
  return secret ? { id, secret } : { id };
}

const toTrigger = (r: Record<string, any>): Trigger => ({
  id: r.id, organisationId: r.organisation_id, type: r.type, clientId: r.client_id, url: r.url, events: r.events, startsAfter: `${r.starts_after_commit}/${r.starts_after_prepare}`,
  createdAt: r.created_at.toISOString(), disabledAt: r.disabled_at?.toISOString() ?? null, disabledReason: r.disabled_reason,
});

export async function listTriggers(pool: pg.Pool, organisationId: string): Promise<Trigger[]> {
  const { rows } = await pool.query(`SELECT * FROM triggers WHERE organisation_id = $1 ORDER BY created_at, id`, [organisationId]);
  return rows.map(toTrigger);
}

export async function getTrigger(pool: pg.Pool, organisationId: string, id: string): Promise<Trigger | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await pool.query(`SELECT * FROM triggers WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
  return rows[0] ? toTrigger(rows[0]) : undefined;
}

export async function deleteTrigger(pool: pg.Pool, organisationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await pool.query(`DELETE FROM triggers WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
  return (rowCount ?? 0) > 0;
}
