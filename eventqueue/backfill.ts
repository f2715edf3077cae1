/**
 * A trigger that starts before where the fan-out stands (`from` 'beginning' or an earlier position): the
 * events between its start and the fan-out's checkpoint are queued for it now, in its creation's
 * transaction, with the fan-out's checkpoint row locked (the fan-out waits meanwhile, so no event is
 * queued twice or missed at the seam). Later events reach it through the fan-out, as for any trigger.
 */
import type pg from 'pg';
import { START, comparePositions, type EventStore, type GlobalPosition } from '../eventstore/port.ts';
import { Writes } from '../projections/engine/writes.ts';
import { QUEUED_EVENT_TYPES } from './catalog.ts';
import { enqueue } from './fanout.ts';

export const BACKFILL_LIMITS = Object.freeze({ readCount: 1000 });

/** Locks the fan-out's checkpoint (first: as the fan-out's batches take it) and returns it. */
export async function lockFanoutCheckpoint(client: pg.PoolClient): Promise<GlobalPosition> {
  const { rows } = await client.query(`SELECT commit_pos::text AS commit, prepare_pos AS prepare FROM projection_checkpoints WHERE name = 'fanout' FOR UPDATE`);
  return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : START;
}

/** Queues for the trigger the organisation's events after `start` up to `until` (the locked checkpoint); how many were read for it. */
export async function backfillTrigger(
  client: pg.PoolClient,
  store: Pick<EventStore, 'readAll'>,
  trigger: { id: string; organisationId: string },
  start: GlobalPosition,
  until: GlobalPosition,
): Promise<number> {
  let from = start;
  let queued = 0;
  while (comparePositions(from, until) < 0) {
    const page = await store.readAll(from, { maxCount: BACKFILL_LIMITS.readCount, filter: { eventTypes: QUEUED_EVENT_TYPES } });
    const within = page.filter((e) => comparePositions(e.position, until) <= 0);
    const mine = within.filter((e) => e.metadata.organisationId === trigger.organisationId);
    if (mine.length > 0) {
      const writes = new Writes();
      enqueue(mine, writes, trigger.id);
      await writes.flush(client);
      queued += mine.length;
    }
    if (within.length < BACKFILL_LIMITS.readCount) break;
    from = within[within.length - 1].position;
  }
  return queued;
}
