/**
 * Catch-up-then-live subscription over readAll: reads batches until the visible head, then waits for
 * a wake-up (or the poll interval) and reads again. After a wake-up that found nothing visible yet
 * (an earlier transaction still holds the horizon back) it retries on a short, bounded backoff.
 */
import {
  LIMITS,
  comparePositions,
  type BatchHandler,
  type GlobalPosition,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
  type SubscriptionOptions,
} from '../port.ts';

export const SUBSCRIPTION_LIMITS = Object.freeze({
  pollIntervalMs: 250,
  retryBackoffMs: [1, 2, 4, 8, 16, 32, 64] as const,
  maxBatchSize: LIMITS.maxReadCount,
});

export interface SubscriptionSource {
  readAll(from: GlobalPosition, options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** The last committed event matching the filter, visible to readAll or not yet (horizon). */
  committedHead(filter: SubscriptionOptions['filter']): Promise<GlobalPosition>;
  onWake(callback: () => void): Promise<() => void>;
}

export function pollingSubscription(
  source: SubscriptionSource,
  options: SubscriptionOptions,
  handler: BatchHandler,
): Subscription {
  const batchSize = Math.min(options.batchSize ?? LIMITS.defaultBatchSize, SUBSCRIPTION_LIMITS.maxBatchSize);
  let stopped = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const run = async () => {
    const unsubscribe = await source.onWake(() => {
      woken = true;
      wakeUp?.();
    });
    try {
      let position = options.from;
      // Caught up means: everything committed before we started was delivered. Events already
      // committed may still sit above the read horizon (an older transaction is open): wait for them.
      const head = await source.committedHead(options.filter);
      let isCaughtUp = comparePositions(position, head) >= 0;
      if (isCaughtUp) markCaughtUp();
      let retry = 0;
      while (!stopped) {
        woken = false;
        const batch = await source.readAll(position, { maxCount: batchSize, filter: options.filter });
        if (batch.length > 0) {
          position = batch[batch.length - 1].position;
          if (!isCaughtUp && comparePositions(position, head) >= 0) isCaughtUp = true;
          await handler(batch, { caughtUp: isCaughtUp });
          if (isCaughtUp) markCaughtUp();
          retry = 0;
          continue;
        }
        if (woken || retry > 0 || !isCaughtUp) {
          const backoff = SUBSCRIPTION_LIMITS.retryBackoffMs[retry];
          if (backoff !== undefined || !isCaughtUp) {
            retry = Math.min(retry + 1, SUBSCRIPTION_LIMITS.retryBackoffMs.length);
            await sleep(backoff ?? SUBSCRIPTION_LIMITS.retryBackoffMs[SUBSCRIPTION_LIMITS.retryBackoffMs.length - 1]);
            continue;
          }
        }
        retry = 0;
        if (!woken) await sleep(SUBSCRIPTION_LIMITS.pollIntervalMs);
      }
    } finally {
      unsubscribe();
    }
  };

  const done = run();
  done.catch(() => {}); // observed through `done`
  return {
    caughtUp,
    done,
    async stop() {
      stopped = true;
      wakeUp?.();
      await done.catch(() => {});
    },
  };
}
