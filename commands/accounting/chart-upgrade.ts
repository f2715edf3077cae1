/**
 * The chart upgrade: organisations created by an earlier version lack the posting accounts their master chart
 * gained since (the sales posting's intra-EU, export and IGIC accounts...). Each organisation's stream decides
 * which it lacks (InstallChartAccounts) and appends them as AccountingAccountCreated events, queued like any
 * account creation; stored events are never rewritten. Run at service start for every organisation and by
 * `ledger org upgrade-chart`. Purely the write side: the organisations are found by their OrganisationCreated
 * events and each decision reads only its Organisation stream, so it needs no read model caught up. Several
 * processes may run it at once: the stream's expected revision lets one append; the other's decision, run
 * again on the appended state, decides nothing.
 */
import { decideOrganisation, type OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { START, type EventStore, type GlobalPosition } from '../../eventstore/port.ts';
import type { CommandContext } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { OrganisationAggregate } from './aggregates.ts';

export const CHART_UPGRADE = Object.freeze({
  /** Organisations read (and upgraded, one after the other) per batch: a pass continues batch after batch. */
  organisationsPerBatch: 100,
  /** The correlation id of the upgrade's events: no user or client issued them (`ledger history` shows it). */
  correlationId: 'system:chart-upgrade',
});

export interface InstalledAccounts {
  organisationId: string;
  /** The codes installed, in chart order (none when the organisation had every line or deleted the others). */
  codes: string[];
}

export interface ChartUpgradeReport {
  organisations: number;
  /** Only the organisations that received accounts. */
  upgraded: InstalledAccounts[];
  accounts: number;
  /** Organisations whose decision failed (their stream could not be read or appended to): the others go on. */
  failed: { organisationId: string; error: string }[];
}

/** Installs one organisation's missing master chart accounts. */
export async function installChartAccounts(services: CommandServices, organisationId: string): Promise<InstalledAccounts> {
  const ctx: CommandContext = { organisationId, correlationId: CHART_UPGRADE.correlationId };
  const now = services.now();
  const { events } = await services.aggregates.execute(OrganisationAggregate, organisationId, ctx, (state) => decideOrganisation({ type: 'InstallChartAccounts', now }, state));
  const created = events.filter((e): e is Extract<OrganisationEvent, { type: 'AccountingAccountCreated' }> => e.type === 'AccountingAccountCreated');
  return { organisationId, codes: created.map((e) => e.data.code) };
}

/** Every organisation's id, a batch at a time, in the order they were created (from their OrganisationCreated events). */
export async function* organisationBatches(store: EventStore, size: number = CHART_UPGRADE.organisationsPerBatch): AsyncGenerator<string[]> {
  let from: GlobalPosition = START;
  for (;;) {
    const created = await store.readAll(from, { maxCount: size, filter: { eventTypes: ['OrganisationCreated'], categories: [OrganisationAggregate.category] } });
    if (created.length === 0) return;
    yield created.map((e) => (e.data as { organisationId: string }).organisationId);
    if (created.length < size) return;
    from = created[created.length - 1].position;
  }
}

/**
 * One pass: the organisation given, or every one batch by batch. `onBatch` is told after each batch (for logs);
 * an aborted pass stops between organisations (the next pass redoes nothing already installed).
 */
export async function upgradeCharts(
  services: CommandServices,
  store: EventStore,
  options: { organisationId?: string; signal?: AbortSignal; onBatch?: (done: ChartUpgradeReport) => void } = {},
): Promise<ChartUpgradeReport> {
  const report: ChartUpgradeReport = { organisations: 0, upgraded: [], accounts: 0, failed: [] };
  const batches = options.organisationId ? [[options.organisationId]] : organisationBatches(store);
  for await (const batch of batches) {
    for (const organisationId of batch) {
      if (options.signal?.aborted) return report;
      report.organisations++;
      let installed: InstalledAccounts;
      try {
        installed = await installChartAccounts(services, organisationId);
      } catch (error) {
        if (options.organisationId) throw error; // (the one asked for: its refusal is the answer)
        report.failed.push({ organisationId, error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      if (installed.codes.length > 0) {
        report.upgraded.push(installed);
        report.accounts += installed.codes.length;
      }
    }
    options.onBatch?.(report);
  }
  return report;
}
