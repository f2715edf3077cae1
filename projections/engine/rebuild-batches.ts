/**
 * How a rebuild's phase 1 reads batches of events and prepares their writes into the shadow tables:
 * on worker threads (rebuild-workers.ts) when it can, else here, in the batch's own transaction.
 */
import type pg from 'pg';
import type { EventStore, GlobalPosition, RecordedEvent } from '../../eventstore/port.ts';
import { project, sourceOf, type Projection } from './projection.ts';
import { RebuildWorkers } from './rebuild-workers.ts';
import { REBUILD_COPY_FROM_ROWS, shadowTable } from './shadow.ts';
import { Writes, type PreparedWrites } from './writes.ts';

async function writesOf(client: pg.PoolClient, projection: Projection, events: RecordedEvent[], bulk: boolean): Promise<Writes> {
  const writes = new Writes({ sums: !bulk });
  await project(projection, events, writes, shadowTable, client);
  return writes;
}

/** A batch read in phase 1: how many events, the last one's position, and its writes once prepared. */
export interface Batch {
  size: number;
  last: GlobalPosition;
  prepared: (client: pg.PoolClient) => Promise<PreparedWrites>;
}

/**
 * Worker threads for phase 1, when they can do it: the store hands over events as stored (readAllStored),
 * the projection loads nothing first (prepare) and is a registered one (the threads load it from its module, sourceOf).
 * A failure to start them is a warning: the rebuild goes on without them, only slower.
 */
export async function startWorkers(store: EventStore, projection: Projection, count: number, sliceEvents?: number): Promise<RebuildWorkers | undefined> {
  const source = sourceOf(projection);
  if (!store.readAllStored || projection.prepare || !source) return undefined;
  try {
    return await RebuildWorkers.start(projection, source, count, sliceEvents);
  } catch (error) {
    process.emitWarning(`rebuild of ${projection.name} goes on without worker threads: ${(error as Error).message}`, 'RebuildWarning');
    return undefined;
  }
}

/**
 * How phase 1 reads and prepares batches: here, in the batch's transaction, or on worker threads. `bulk`: phase 1,
 * whose sums are filled after the load (sums.ts fillSums; workers prepare nothing else); else the swap's tail, which keeps them.
 */
export function batchReader(store: EventStore, projection: Projection, batchSize: number, workers: RebuildWorkers | undefined, bulk = true): (from: GlobalPosition) => Promise<Batch | undefined> {
  const options = { maxCount: batchSize, filter: { eventTypes: projection.eventTypes } };
  if (workers && store.readAllStored) {
    const readStored = store.readAllStored.bind(store);
    return async (from) => {
      const stored = await readStored(from, options);
      if (!stored) return undefined;
      const { count, last } = stored;
      const prepared = workers.prepare(stored); // starts now: the workers run ahead of the writes
      prepared.catch(() => {}); // awaited in the batch's transaction
      return { size: count, last, prepared: () => prepared };
    };
  }
  return async (from) => {
    const events = await store.readAll(from, options);
    if (events.length === 0) return undefined;
    return { size: events.length, last: events[events.length - 1].position, prepared: async (client) => (await writesOf(client, projection, events, bulk)).prepare(REBUILD_COPY_FROM_ROWS) };
  };
}
