/**
 * The chart upgrade at start-up (commands/accounting/chart-upgrade.ts): in the background, so the service serves
 * meanwhile, batch by batch with a log line per batch that installed anything and one at the end. Other processes
 * starting at once run it too; the streams' expected revisions keep them from appending twice.
 */
import type { FastifyBaseLogger } from 'fastify';
import { upgradeCharts, type ChartUpgradeReport } from '../commands/accounting/chart-upgrade.ts';
import type { CommandServices } from '../commands/services.ts';
import type { EventStore } from '../eventstore/port.ts';

export interface ChartUpgradeRun {
  /** The pass's report once it ends (undefined if it failed: the next start runs it again). */
  done(): Promise<ChartUpgradeReport | undefined>;
  /** Stops between organisations and waits for the pass to end. */
  stop(): Promise<void>;
}

export function startChartUpgrade(services: CommandServices, store: EventStore, log: FastifyBaseLogger): ChartUpgradeRun {
  const abort = new AbortController();
  let logged = 0;
  const pass = upgradeCharts(services, store, {
    signal: abort.signal,
    onBatch: (r) => {
      if (r.accounts === logged) return;
      logged = r.accounts;
      log.info({ organisations: r.organisations, upgraded: r.upgraded.length, accounts: r.accounts }, 'chart upgrade: master chart accounts installed so far');
    },
  }).then((r) => {
    const counts = { organisations: r.organisations, upgraded: r.upgraded.length, accounts: r.accounts, failed: r.failed.length };
    if (r.failed.length > 0) log.error({ ...counts, failures: r.failed.slice(0, 10) }, 'chart upgrade: some organisations could not be upgraded (ledger org upgrade-chart --org ID retries one)');
    else log.info(counts, abort.signal.aborted ? 'chart upgrade: stopped (the next start continues)' : 'chart upgrade: done');
    return r;
  }, (error: unknown) => {
    log.error({ err: error }, 'chart upgrade: failed (the next start runs it again)');
    return undefined;
  });
  return {
    done: () => pass,
    async stop() {
      abort.abort();
      await pass;
    },
  };
}
