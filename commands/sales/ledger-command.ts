/**
 * A Sales command whose event names a ledger entry (posting an invoice, settling open items): decided under the
 * Sales stream's lock, the entry posted first (postSourceEntry: under an id derived from the document, so a retry
 * after a crash between the two appends finds it and is answered its number), then the Sales event appended through
 * AggregateStore.execute, whose idempotency keys (the command id names the Sales event) work as for every command.
 *
 * Locks: the organisation's shared lock, then the Sales stream, held while posting. The ledger's posting runs under
 * that shared hold and takes the ledger's stream, and reads the Parties stream: holding Parties, Catalog or SharedSettings here would
 * invert the order guarded deletions and sales document commands take them in. What the decision reads of those
 * (products' accounts, the customer's code, the payment method) is read before the Sales lock is taken.
 *
 * The answer's position is the Sales append's, which comes after the ledger's: read-your-writes waits for both.
 */
import type { SourceEntry, SourceEntryPosted } from '../accounting/source-postings.ts';
import { postSourceEntry } from '../accounting/source-postings.ts';
import { knownThirdParty } from '../accounting/postings.ts';
import type { SalesEvent } from '../../domain/sales/events.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import type { CommandContext, Decided } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { SalesAggregate } from './aggregates.ts';

export interface EntryDecision {
  entry: SourceEntry;
  /** The Sales event naming the entry as posted. */
  event: (posted: SourceEntryPosted) => SalesEvent;
}

export function salesEntryCommand(services: CommandServices, ctx: CommandContext, decide: (state: SalesState) => EntryDecision): Promise<Decided<SalesEvent>> {
  // The organisation's shared lock first, then the Sales stream (organisation-locks.ts: before any in-process lock);
  // the ledger's posting inside runs under the same hold.
  return services.locks.shared(ctx.organisationId, async () => {
    // The parties before the Sales stream's lock: sales document commands hold Parties while they wait for Sales.
    const thirdParties = await knownThirdParty(services, ctx.organisationId, 'code');
    return services.aggregates.execute(SalesAggregate, ctx.organisationId, ctx, async () => {
      // Decided on the stream as the store has it, not the cache: an entry posted on a stale decision (another
      // process appended meanwhile) could be refused on the retry and be left without its Sales event.
      const { state } = await services.aggregates.loadHeld(SalesAggregate, ctx.organisationId);
      const { entry, event } = decide(state);
      return [event(await postSourceEntry(services, ctx, entry, thirdParties))];
    });
  });
}

/** The entry a recorded or appended event names: `{ accountingEntryId, accountingEntryNumber }`. */
export function entryAnswer(events: SalesEvent[]): { accountingEntryId: string; accountingEntryNumber: number } {
  for (const e of events) {
    if (e.type === 'SalesInvoicePosted' || e.type === 'SalesOpenItemsSettled') return { accountingEntryId: e.data.entryId, accountingEntryNumber: e.data.entryNumber };
  }
  throw new Error('invariant violated: a posting command recorded no event naming its entry');
}
