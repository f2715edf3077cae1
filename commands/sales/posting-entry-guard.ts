/**
 * The entry that posted a sales invoice or credit note is never deleted: the document would stay Posted, its
 * open items standing, with nothing in the books; a credit note corrects an invoice instead. Decided under the
 * Sales stream's lock, which a posting holds from its check to its Sales event, so the entry of a Closed invoice
 * whose posting crashed between its two appends (the retry completes it) counts too.
 */
import { fail } from '../../domain/errors.ts';
import { SalesErrors } from '../../domain/sales/errors.ts';
import type { KeptDocument, SalesState } from '../../domain/sales/state.ts';
import { AggregateStore, type CommandContext } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { SalesAggregate } from './aggregates.ts';
import { postingEntryId } from './posting.ts';

function documentPostedBy(state: SalesState, entryId: string): KeptDocument | undefined {
  const posted = state.postingEntries.get(entryId);
  if (posted) return state.documents.get(posted);
  for (const kept of state.documents.values()) {
    if (kept.status === 'Closed' && kept.document.kind === 'INVOICE' && postingEntryId(kept.document.documentId) === entryId) return kept;
  }
  return undefined;
}

/**
 * Runs `deletion` of the entry unless it posted a sales document (refused then, nothing appended). Undefined,
 * without deleting, when the entry has become a settlement's meanwhile (its deletion undoes the settlement).
 */
export function unlessPostingEntry<T>(services: CommandServices, ctx: CommandContext, entryId: string, deletion: () => Promise<T>): Promise<T | undefined> {
  // In the order postings take them: the organisation's shared lock, then the Sales stream.
  return services.locks.shared(ctx.organisationId, () =>
    services.aggregates.withLocks([AggregateStore.streamId(SalesAggregate.category, ctx.organisationId)], async () => {
      const { state } = await services.aggregates.loadHeld(SalesAggregate, ctx.organisationId);
      const kept = documentPostedBy(state, entryId);
      if (kept) fail(SalesErrors.postingEntryNotDeletable, { id: entryId, number: kept.document.operationalNumber ?? kept.document.documentId });
      if (state.settlementEntries.has(entryId)) return undefined;
      return deletion();
    }),
  );
}
