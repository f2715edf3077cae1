/**
 * Deleting a settlement's payment entry undoes the settlement: what it paid is open again and the invoices go
 * back to Posted or PartiallyCollected. Decided under the Sales stream's lock, as the settlement was: the
 * ledger's deletion first (under a command id derived from the entry's), then SalesSettlementUndone. A retry
 * after a crash between the two finds the entry gone and the settlement standing, and appends only the latter.
 */
import { LedgerAggregate } from '../accounting/aggregates.ts';
import { ledgerCommand } from '../accounting/ledger-command.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import { derivedId } from '../../domain/ids.ts';
import type { CommandContext } from '../aggregate-store.ts';
import type { CommandResult } from '../handler.ts';
import type { CommandServices } from '../services.ts';
import type { SalesEvent } from '../../domain/sales/events.ts';
import { SalesAggregate } from './aggregates.ts';

/** The deletion of `entryId` when a standing settlement names it; undefined when none does (an ordinary entry). */
export async function undoSettlementOf(services: CommandServices, ctx: CommandContext, org: OrganisationState, entryId: string): Promise<CommandResult | undefined> {
  const { state: seen } = await services.aggregates.load(SalesAggregate, ctx.organisationId);
  if (!seen.settlementEntries.has(entryId)) return undefined;
  const now = services.now();
  const r = await services.aggregates.execute(SalesAggregate, ctx.organisationId, ctx, async (state): Promise<SalesEvent[]> => {
    const settlement = state.settlementEntries.get(entryId) ?? fail(AccountingErrors.entryNotFound, { id: entryId });
    const { state: ledger } = await services.aggregates.load(LedgerAggregate, settlement.exerciseId);
    if (ledger.entries.has(entryId)) {
      const ledgerCtx: CommandContext = { organisationId: ctx.organisationId, userId: ctx.userId, clientId: ctx.clientId, correlationId: ctx.correlationId ?? ctx.commandId, commandId: derivedId(entryId, 'command', 'settlement-deletion') };
      await ledgerCommand(services, ledgerCtx, org, settlement.exerciseId, { type: 'DeleteAccountingEntry', entryId, now });
    }
    return [{ type: 'SalesSettlementUndone', data: { settlementId: settlement.settlementId, entryId, at: now } }];
  });
  return { id: entryId, position: r.position };
}
