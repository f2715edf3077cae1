/**
 * Worker threads for a rebuild's heavy part on the Node side: parsing stored events, applying the
 * projection and encoding its rows as COPY data. On one thread that work keeps a core busy while the
 * database server waits for rows; spread over a few, the server gets them as fast as it takes them.
 *
 * The main thread still reads the events (as stored: one buffer per batch, cheap to read and to hand over),
 * keeps the batches in order and writes them in its own transactions with their counts and progress.
 * A batch goes to the worker with the fewest batches in hand and comes back as PreparedWrites: COPY
 * data moved (not copied) between threads, statements, count and sum changes.
 */
import { Worker } from 'node:worker_threads';
import type { StoredBatch } from '../../eventstore/port.ts';
import { runsFromSource, siblingModule } from '../../platform/module-files.ts';
import { Tally, type TallyData } from './counts.ts';
import { SumTally, type SumTallyData } from './sums.ts';
import type { ProjectionSource } from './projection.ts';
import type { Projection } from './projection.ts';
import type { Resource } from './resource.ts';
import { PreparedWrites, type Lookup, type PreparedOp } from './writes.ts';

export const WORKER_LIMITS = Object.freeze({
  /** Longest a worker may take to start (load the code) and to prepare one batch. */
  startTimeoutMs: 60_000,
  batchTimeoutMs: 120_000,
  /**
   * Young generation of a worker's heap (V8's default is 48 MB here): what the process flag
   * --max-semi-space-size=64 of package.json's scripts gives too (the flag wins), for a process started
   * without it. Started without the flag, in rebuilds of 1,000,000 events this took the workers' CPU from
   * about 140% to 120-135% of a core.
   */
  youngGenerationMb: 192,
  /** Events a worker decodes and applies at a time before it encodes their rows (rebuild-worker.ts). */
  sliceEvents: 256,
});

/** What a worker thread is started with: the projection to load, and how many events it handles at a time. */
export interface WorkerSetup {
  source: ProjectionSource;
  sliceEvents: number;
}

export interface PrepareRequest {
  id: number;
  events: StoredBatch;
}

/** A statement's resources go by type name between threads (their definitions hold functions). */
type OpMessage =
  | Exclude<PreparedOp, { kind: 'sql' }>
  | { kind: 'sql'; text: string; params: unknown[]; lookups?: (Omit<Lookup, 'resource'> & { resource: string })[]; removes?: { resource: string; table: string; counted: boolean; summed: boolean; entering?: string } };

export type PrepareReply =
  | { id: number; ops: OpMessage[]; counts: TallyData; sums: SumTallyData; insertsOnly: boolean }
  | { id: number; error: string };

/** A batch's prepared writes as a message, and the buffers to move with it rather than copy. */
export function preparedMessage(id: number, prepared: PreparedWrites): { reply: PrepareReply; transfer: ArrayBuffer[] } {
  const transfer = new Set<ArrayBuffer>();
  const ops = prepared.ops.map((op): OpMessage => {
    if (op.kind === 'copy') {
      for (const chunk of op.data) ownBuffer(chunk).forEach((buffer) => transfer.add(buffer));
      return op;
    }
    if (op.kind === 'insert') {
      // (An insert whose rows were partly encoded holds an encoder: prepare() makes COPY statements of those.)
      if (op.encoded) throw new Error('rebuild worker: an insert left half encoded');
      return op;
    }
    for (const value of op.params) assertPassable(value);
    return {
      ...op,
      lookups: op.lookups?.map((lookup) => ({ ...lookup, resource: lookup.resource.typeName })),
      removes: op.removes && { ...op.removes, resource: op.removes.resource.typeName },
    };
  });
  return { reply: { id, ops, counts: prepared.tally.data, sums: prepared.sums.data, insertsOnly: prepared.insertsOnly }, transfer: [...transfer] };
}

/**
 * The memory of `bytes`, to move to another thread rather than copy, when nothing else uses it: a small
 * Buffer shares Node's pool with other values of this thread, and must be copied.
 */
function ownBuffer(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.buffer instanceof ArrayBuffer && bytes.buffer.byteLength > Buffer.poolSize ? [bytes.buffer] : [];
}

/** Statement parameters arrive as the structured clone makes them: only plain data keeps its meaning. */
function assertPassable(value: unknown): void {
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  if (Array.isArray(value)) return value.forEach(assertPassable);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new Error(`a statement parameter of class ${proto?.constructor?.name} cannot pass between threads`);
  Object.values(value).forEach(assertPassable);
}

function preparedFromMessage(reply: Extract<PrepareReply, { ops: unknown }>, resources: readonly Resource[]): PreparedWrites {
  const resource = (typeName: string) => {
    const r = resources.find((candidate) => candidate.typeName === typeName);
    if (!r) throw new Error(`a worker named a resource this projection does not have: ${typeName}`);
    return r;
  };
  const ops = reply.ops.map((op): PreparedOp => {
    if (op.kind !== 'sql') return op;
    return {
      ...op,
      lookups: op.lookups?.map((lookup) => ({ ...lookup, resource: resource(lookup.resource) })),
      removes: op.removes && { ...op.removes, resource: resource(op.removes.resource) },
    };
  });
  return new PreparedWrites(ops, new Tally(reply.counts), reply.insertsOnly, new SumTally(reply.sums));
}

interface Pending {
  resolve: (prepared: PreparedWrites) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class RebuildWorker {
  readonly pending = new Map<number, Pending>();
  private failure: Error | undefined;

  constructor(
    readonly thread: Worker,
    private readonly resources: readonly Resource[],
  ) {
    thread.on('message', (reply: PrepareReply) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      clearTimeout(job.timer);
      if ('error' in reply) job.reject(new Error(`rebuild worker: ${reply.error}`));
      else {
        try {
          job.resolve(preparedFromMessage(reply, this.resources));
        } catch (error) {
          job.reject(error as Error);
        }
      }
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const job of this.pending.values()) {
        clearTimeout(job.timer);
        job.reject(error);
      }
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('messageerror', fail);
    thread.on('exit', (code) => fail(new Error(`rebuild worker stopped (exit code ${code})`)));
  }

  prepare(request: PrepareRequest): Promise<PreparedWrites> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      // (Counted from when the batch is handed over, so it includes the batches queued before it in this worker.)
      const timer = setTimeout(() => {
        this.pending.delete(request.id);
        reject(new Error(`rebuild worker: no answer for a batch in ${WORKER_LIMITS.batchTimeoutMs} ms`));
      }, WORKER_LIMITS.batchTimeoutMs);
      this.pending.set(request.id, { resolve, reject, timer });
      try {
        this.thread.postMessage(request, ownBuffer(request.events.data));
      } catch (error) {
        this.pending.delete(request.id);
        clearTimeout(timer);
        reject(error as Error);
      }
    });
  }
}

export class RebuildWorkers {
  private nextId = 0;

  private constructor(private readonly workers: RebuildWorker[]) {}

  /** `count` threads preparing batches of `projection`, each ready (code loaded) before this resolves. */
  static async start(projection: Projection, source: ProjectionSource, count: number, sliceEvents: number = WORKER_LIMITS.sliceEvents): Promise<RebuildWorkers> {
    if (!(Number.isInteger(count) && count >= 1 && count <= 16)) throw new RangeError('rebuild workers: a whole number, 1..16');
    if (!(Number.isInteger(sliceEvents) && sliceEvents >= 1)) throw new RangeError('rebuild workers: slices of a whole number of events, at least 1');
    const setup: WorkerSetup = { source, sliceEvents };
    // From the source, the thread's entry registers tsx before it loads the TypeScript; compiled, it is plain JavaScript.
    const boot = runsFromSource(import.meta.url) ? new URL('./rebuild-worker.mjs', import.meta.url) : siblingModule(import.meta.url, './rebuild-worker');
    const threads = Array.from({ length: count }, () => new Worker(boot, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_LIMITS.youngGenerationMb } }));
    const workers = new RebuildWorkers(threads.map((thread) => new RebuildWorker(thread, projection.resources)));
    // Every thread settles (ready, failed or timed out) before this returns, so no start timer outlives it.
    const started = await Promise.allSettled(threads.map((thread) => ready(thread)));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await workers.close();
      throw failed.reason;
    }
    return workers;
  }

  /** The batch's writes, prepared by the least busy worker. The batch's data moves to it (unusable here afterwards). */
  prepare(events: StoredBatch): Promise<PreparedWrites> {
    const worker = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    return worker.prepare({ id: this.nextId++, events });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.thread.terminate()));
  }
}

/** Resolves on the worker's first message ('ready', once its code is loaded), rejects if it fails or stops first. */
function ready(thread: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`rebuild worker did not start in ${WORKER_LIMITS.startTimeoutMs} ms`)), WORKER_LIMITS.startTimeoutMs);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      thread.off('message', onMessage);
      thread.off('error', settle);
      thread.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (message: unknown) => settle(message === 'ready' ? undefined : new Error(`rebuild worker: unexpected first message`));
    const onExit = (code: number) => settle(new Error(`rebuild worker stopped before it was ready (exit code ${code})`));
    thread.on('message', onMessage);
    thread.on('error', settle);
    thread.on('exit', onExit);
  });
}
