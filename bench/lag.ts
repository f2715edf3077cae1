/**
 * Projection lag under a steady, open-loop load: entries are posted through the command layer
 * (service.commands.createAccountingEntryUsingCodes) at a fixed rate, spread round robin over several
 * organisations, whether or not earlier posts have finished (a slow service builds a backlog instead of
 * slowing the load down). For each entry, lag = from the command's append returning to the moment
 * service.daemon.waitFor(position) resolves, i.e. the read models include it; waitFor is registered
 * right after the append, so nothing polls.
 *
 * An attempt is sustained when both sides kept up with the schedule: appends (>= 97% of the target rate
 * appended within the window, p99 of scheduled-to-appended <= 500 ms, no failures) and projections
 * (>= 97% of the target rate projected within the window, lag p99 <= 1 s). When the target rate is not
 * sustained, lower rates are tried (below what was achieved) until one is, and that one is reported as
 * the highest sustained rate. An attempt stops early once 3 s worth of posts wait to be appended or
 * projected.
 *
 * The read-model daemon's batches are counted by wrapping its (private) applyBatch on the instance, to
 * show how the lag comes about; the service's code is not changed.
 */
import { benchTarget, contentionWarning, cpuMeter, latencySummary, resultHeader, sleep, table, withAdmin, type CpuPercent } from './support.ts';
import { entryInput, settle, startBenchService, type BenchService } from './service.ts';
import { DAEMON_LIMITS } from '../projections/engine/daemon.ts';
import { POOL_LIMITS } from '../platform/database.ts';

export interface LagBenchOptions {
  freshDatabase: () => Promise<string>;
  /** Target entries/s; default 1,000. */
  rate?: number;
  /** Measured window per attempt; default 15,000 ms. */
  durationMs?: number;
  /** Unmeasured run at half the target rate first; default 2,000 ms. */
  warmupMs?: number;
  /** Organisations the posts are spread over; default 8. */
  organisations?: number;
  /** Attempts at all (the target, then lower rates); default 4. */
  maxAttempts?: number;
  log?: (line: string) => void;
}

type Summary = ReturnType<typeof latencySummary>;

export interface LagAttempt {
  targetRate: number;
  /** Measured window actually run (shorter when aborted). */
  windowMs: number;
  issued: number;
  /** Appends that completed within the window, per second. */
  achievedRate: number;
  /** Entries the read models included within the window, per second. */
  projectedRate: number;
  /** Entries projected per second from the start until the last one (drain included): the daemon's pace when behind. */
  projectionThroughput: number;
  sustained: boolean;
  aborted: boolean;
  failures: number;
  /** waitFor gave up (60 s) before the projections reached the entry. */
  waitTimeouts: number;
  /** Most posts issued but not yet projected (or failed) at any moment. */
  maxBacklog: number;
  /** Append returned -> projections include the entry. */
  lagMs: Summary;
  /** Scheduled time -> append returned (queueing in the service included). */
  commandMs: Summary;
  cpuPercent: CpuPercent;
  /** The read-model daemon's transactions during the attempt (null if its applyBatch could not be wrapped). */
  daemon: DaemonStats | null;
  firstError?: string;
}

export interface DaemonStats {
  batches: number;
  events: number;
  eventsPerBatch: number;
  /** One batch: its transaction (checkpoints, inserts, checkpoint updates, commit). */
  batchMs: Summary;
}

/** Times the daemon's batches: wraps applyBatch on the instance (private: reached on purpose, like bench/eventstore.ts). */
function watchDaemon(daemon: object): { take(): DaemonStats | null } {
  const target = daemon as { applyBatch?: (batch: unknown[]) => Promise<void> };
  const original = target.applyBatch;
  if (typeof original !== 'function') return { take: () => null };
  let times: number[] = [];
  let events = 0;
  target.applyBatch = async (batch: unknown[]) => {
    const t0 = performance.now();
    await original.call(daemon, batch);
    times.push(performance.now() - t0);
    events += batch.length;
  };
  return {
    take() {
      const stats = { batches: times.length, events, eventsPerBatch: Math.round((events / Math.max(1, times.length)) * 10) / 10, batchMs: latencySummary(times) };
      times = [];
      events = 0;
      return stats;
    },
  };
}

const SUSTAINED = Object.freeze({ minShare: 0.97, maxCommandP99Ms: 500, maxLagP99Ms: 1000, abortBacklogSeconds: 3 });

async function openLoop(
  bench: BenchService,
  rate: number,
  windowMs: number,
  log: (line: string) => void,
  daemonWatch: ReturnType<typeof watchDaemon>,
  postmasterPid?: number,
): Promise<LagAttempt> {
  const { service, organisations } = bench;
  const input = entryInput();
  const lags: number[] = [];
  const commandTimes: number[] = [];
  const pending = new Set<Promise<void>>();
  let issued = 0;
  let appended = 0; // appended or failed
  let finished = 0; // projected, failed or given up on
  let appendedInWindow = 0;
  let projectedInWindow = 0;
  let failures = 0;
  let waitTimeouts = 0;
  let maxBacklog = 0;
  let lastProjectedAt = 0;
  let firstError: string | undefined;
  let windowOpen = true;

  const fire = (k: number, scheduledAt: number) => {
    const org = organisations[k % organisations.length];
    const p = service.mutate.createAccountingEntryUsingCodes({ organisationId: org.organisationId }, input).then(
      async (created) => {
        // The clock starts when the append has returned; waitFor is registered at once.
        const appendedAt = performance.now();
        appended++;
        if (windowOpen) appendedInWindow++;
        commandTimes.push(appendedAt - scheduledAt);
        const projected = await service.daemon.waitFor(created.position, 60_000);
        finished++;
        if (!projected) {
          waitTimeouts++;
          return;
        }
        lastProjectedAt = performance.now();
        lags.push(lastProjectedAt - appendedAt);
        if (windowOpen) projectedInWindow++;
      },
      (error) => {
        appended++;
        finished++;
        failures++;
        firstError ??= String(error);
      },
    );
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  daemonWatch.take(); // only this attempt's batches
  const meter = cpuMeter(postmasterPid);
  const start = performance.now();
  let aborted = false;
  let lastLog = start;
  for (;;) {
    const now = performance.now();
    const elapsed = now - start;
    if (elapsed >= windowMs) break;
    const due = Math.floor((elapsed * rate) / 1000);
    while (issued < due) {
      fire(issued, start + (issued * 1000) / rate);
      issued++;
    }
    const backlog = issued - finished;
    if (backlog > maxBacklog) maxBacklog = backlog;
    if (backlog > rate * SUSTAINED.abortBacklogSeconds) {
      aborted = true;
      break;
    }
    if (now - lastLog >= 5_000) {
      lastLog = now;
      log(`    ${Math.round(elapsed / 1000)} s: ${issued} posted, ${appended} appended, ${finished} projected`);
    }
    await sleep(1);
  }
  const windowEnd = performance.now();
  windowOpen = false;
  const cpuPercent = meter();
  // Drain: everything issued is appended and projected before the next attempt.
  while (pending.size > 0) await Promise.all([...pending]);
  await settle(service);
  const daemon = daemonWatch.take();

  const seconds = (windowEnd - start) / 1000;
  const achievedRate = Math.round(appendedInWindow / seconds);
  const projectedRate = Math.round(projectedInWindow / seconds);
  const commandMs = latencySummary(commandTimes);
  const lagMs = latencySummary(lags);
  return {
    targetRate: rate,
    windowMs: Math.round(windowEnd - start),
    issued,
    achievedRate,
    projectedRate,
    projectionThroughput: lags.length > 0 ? Math.round(lags.length / ((lastProjectedAt - start) / 1000)) : 0,
    sustained:
      !aborted &&
      failures === 0 &&
      waitTimeouts === 0 &&
      achievedRate >= rate * SUSTAINED.minShare &&
      projectedRate >= rate * SUSTAINED.minShare &&
      commandMs.p99 <= SUSTAINED.maxCommandP99Ms &&
      lagMs.p99 <= SUSTAINED.maxLagP99Ms,
    aborted,
    failures,
    waitTimeouts,
    maxBacklog,
    lagMs,
    commandMs,
    cpuPercent,
    daemon,
    ...(firstError ? { firstError } : {}),
  };
}

export async function benchLag(adminUrl: string, options: LagBenchOptions): Promise<object> {
  const target = options.rate ?? 1_000;
  const durationMs = options.durationMs ?? 15_000;
  const warmupMs = options.warmupMs ?? 2_000;
  const organisationCount = options.organisations ?? 8;
  const maxAttempts = options.maxAttempts ?? 4;
  const log = options.log ?? ((line: string) => console.error(line));

  const { startedAt, server, postmasterPid, url } = await benchTarget(adminUrl, options.freshDatabase);
  log(`  starting the service over a fresh database with ${organisationCount} organisations ...`);
  const bench = await startBenchService(url, organisationCount);
  const attempts: LagAttempt[] = [];
  const daemonWatch = watchDaemon(bench.service.daemon);
  try {
    if (warmupMs > 0) await openLoop(bench, Math.max(1, Math.round(target / 2)), warmupMs, () => {}, daemonWatch, postmasterPid);
    let rate = target;
    for (let i = 0; i < maxAttempts; i++) {
      await withAdmin(adminUrl, (c) => c.query('CHECKPOINT')).catch(() => {});
      log(`  ${rate} entries/s for ${durationMs / 1000} s over ${organisationCount} organisations ...`);
      const a = await openLoop(bench, rate, durationMs, log, daemonWatch, postmasterPid);
      attempts.push(a);
      log(
        `  ${rate}/s: appended ${a.achievedRate}/s, projected ${a.projectedRate}/s (daemon pace ${a.projectionThroughput}/s)${a.aborted ? ' (aborted: backlog)' : ''}, lag p50 ${a.lagMs.p50} ms, p99 ${a.lagMs.p99} ms, ` +
          `max ${a.lagMs.max} ms; command p50 ${a.commandMs.p50} ms, p99 ${a.commandMs.p99} ms; ${a.sustained ? 'sustained' : 'NOT sustained'}` +
          (a.daemon ? `; daemon ${a.daemon.batches} batches of ${a.daemon.eventsPerBatch} events, p50 ${a.daemon.batchMs.p50} ms` : '') +
          (a.firstError ? `; first error: ${a.firstError}` : ''),
      );
      if (a.sustained) break;
      // Below what the appends and the projections managed (and below this attempt), in steps of 50/s.
      const next = Math.floor(Math.min(Math.min(a.achievedRate, a.projectionThroughput) * 0.9, rate * 0.9) / 50) * 50;
      if (next < 50) break;
      rate = next;
    }
  } finally {
    await bench.close();
  }
  const best = attempts.find((a) => a.sustained);

  return {
    ...resultHeader('lag', startedAt, server),
    config: {
      targetRate: target,
      durationMs,
      warmupMs,
      organisations: organisationCount,
      maxAttempts,
      sustainedWhen: SUSTAINED,
      poolMax: POOL_LIMITS.max,
      daemonBatchSize: DAEMON_LIMITS.batchSize,
      entry: entryInput(),
    },
    targetSustained: attempts[0]?.sustained ?? false,
    highestSustainedRate: best?.targetRate ?? null,
    lagAtHighestSustainedMs: best?.lagMs ?? null,
    attempts,
  };
}

/** The printed summary of a benchLag result. */
export function reportLag(result: object): string {
  const r = result as { attempts: LagAttempt[]; highestSustainedRate: number | null; config: { organisations: number } };
  const lines: string[] = [];
  lines.push(
    table(
      ['target/s', 'appended/s', 'projected/s', 'sustained', 'lag p50', 'lag p99', 'lag max', 'cmd p50', 'cmd p99', 'backlog', 'fail', 'batches', 'ev/batch', 'batch p50', 'cpu node%', 'main%', 'pg%', 'other%'],
      r.attempts.map((a) => [
        a.targetRate, a.achievedRate, a.projectedRate, a.sustained ? 'yes' : a.aborted ? 'NO (aborted)' : 'NO', a.lagMs.p50, a.lagMs.p99, a.lagMs.max,
        a.commandMs.p50, a.commandMs.p99, a.maxBacklog, a.failures + a.waitTimeouts, a.daemon?.batches ?? '-', a.daemon?.eventsPerBatch ?? '-',
        a.daemon?.batchMs.p50 ?? '-', a.cpuPercent.process, a.cpuPercent.mainThread ?? '-', a.cpuPercent.postgres ?? '-',
        a.cpuPercent.other ?? '-',
      ]),
      0,
    ),
  );
  lines.push('(ms; lag: append returned -> read models include the entry; cmd: scheduled -> append returned; backlog: most posts not yet projected;');
  lines.push(' batches: read-model daemon transactions, batch p50: one such transaction)');
  const warning = contentionWarning(r.attempts.map((a) => a.cpuPercent));
  if (warning) lines.push(warning);
  lines.push(
    r.highestSustainedRate === null
      ? 'no attempted rate was sustained'
      : `highest sustained rate: ${r.highestSustainedRate} entries/s over ${r.config.organisations} organisations`,
  );
  return lines.join('\n');
}
