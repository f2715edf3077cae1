/** Retry timing for webhook attempts: an exponential ladder with jitter, and `Retry-After`. */

/** 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then every 8 h (until disabled or dropped). */
export const DEFAULT_BACKOFF_MS = Object.freeze([5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000]);

/**
 * The wait after the `failures`-th failed attempt of one event (1 = the first failure): the ladder's
 * step, spread by +-jitter (0.2 = +-20 %) so that many events failing together do not retry together.
 */
export function retryDelayMs(failures: number, ladder: readonly number[] = DEFAULT_BACKOFF_MS, jitter = 0.2, random = Math.random): number {
  const step = ladder[Math.min(Math.max(failures, 1), ladder.length) - 1] ?? 0;
  return Math.max(0, Math.round(step * (1 - jitter + 2 * jitter * random())));
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return undefined; // only dates (which carry a day or month name) beyond plain seconds
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Whether a status lets the receiver steer the retry with `Retry-After`. */
export const honoursRetryAfter = (status: number) => status === 429 || status >= 500;
