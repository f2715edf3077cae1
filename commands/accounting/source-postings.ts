/**
 * An entry another area posts for its own document (a sales invoice, a settlement): appended to the ledger of
 * the exercise its date falls in, under the id the caller derives from its document, through the ledger's own
 * posting decider and rules (open period, balanced, postable accounts, known third parties, gap-free numbers).
 *
 * The caller appends its own event after this one (Ledger first): a retry after a crash between the two finds
 * the entry by its id and is answered its number, nothing appended twice. The ledger's append runs under a
 * command id derived from the entry's (never the caller's, whose own event takes that one), without the
 * caller's request fingerprint: a retry under another idempotency key is still the same entry.
 */
import type { IsoDate } from '../../domain/calendar.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import type { SourceType } from '../../domain/accounting/enums.ts';
import { NO_THIRD_PARTIES, decideLedger, type KnownThirdParty, type LineInput } from '../../domain/accounting/ledger.ts';
import { exerciseForDate } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import { derivedId } from '../../domain/ids.ts';
import type { CommandContext } from '../aggregate-store.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';
import { knownThirdParty } from './postings.ts';

export interface SourceEntry {
  /** Derived by the caller from its document's id: the same document always names the same entry. */
  entryId: string;
  /** The entry's date: it chooses the exercise and the period. */
  exerciseDate: IsoDate;
  journalTypeId: string;
  description: string | null;
  documentNumber: string | null;
  documentDate?: IsoDate | null;
  /** Lines naming their third party by code (domain/sales/posting.ts makes them). */
  lines: LineInput[];
  sourceType: SourceType;
  sourceEntityId: string;
}

export interface SourceEntryPosted {
  exerciseId: string;
  entryId: string;
  /** The entry's number now (numbers move down when an earlier entry is deleted). */
  number: number;
}

/**
 * `thirdParties`: the parties as read before any stream lock the caller holds (a caller holding the Sales stream must
 * not wait on the Parties stream under it: lock order); read here, before the Ledger's lock, when not given.
 */
export async function postSourceEntry(services: CommandServices, ctx: CommandContext, entry: SourceEntry, thirdParties?: KnownThirdParty): Promise<SourceEntryPosted> {
  // Under the organisation's shared lock, as every posting: no guarded deletion (account, journal, party) meanwhile.
  return services.locks.shared(ctx.organisationId, async () => {
    const parties = thirdParties ?? (entry.lines.some((l) => l.thirdCode) ? await knownThirdParty(services, ctx.organisationId, 'code') : NO_THIRD_PARTIES);
    const org = await services.organisation(ctx.organisationId);
    const exercise = exerciseForDate(org, entry.exerciseDate) ?? fail(AccountingErrors.noExerciseForDate, { date: entry.exerciseDate });
    const ledgerCtx: CommandContext = {
      organisationId: ctx.organisationId, userId: ctx.userId, clientId: ctx.clientId,
      correlationId: ctx.correlationId ?? ctx.commandId, commandId: derivedId(entry.entryId, 'command', 'source-entry'),
    };
    await services.aggregates.execute(LedgerAggregate, exercise.id, ledgerCtx, async (ledger) => {
      if (ledger.entries.has(entry.entryId)) return []; // posted by an earlier attempt
      return decideLedger({
        type: 'PostAccountingEntry', entryId: entry.entryId, lineIds: entry.lines.map((_, i) => derivedId(entry.entryId, 'line', String(i))),
        date: entry.exerciseDate, documentDate: entry.documentDate ?? entry.exerciseDate, documentNumber: entry.documentNumber, description: entry.description,
        journalTypeId: entry.journalTypeId, lines: entry.lines, sourceType: entry.sourceType, sourceEntityId: entry.sourceEntityId, now: services.now(),
      }, ledger, exercise, org, parties);
    });
    // Appended now or found (a retry, answered from the ledger or the recorded events): its number as the ledger stands.
    const { state } = await services.aggregates.load(LedgerAggregate, exercise.id);
    const number = state.entryOrder.indexOf(entry.entryId) + 1;
    if (number === 0) fail(AccountingErrors.entryNotFound, { id: entry.entryId }); // posted once, deleted since
    return { exerciseId: exercise.id, entryId: entry.entryId, number };
  });
}

