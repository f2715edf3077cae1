/**
 * Postings: an entry whose lines name accounts and the journal by code, or by id. Each is decided under the
 * organisation's shared lock with the organisation loaded once, on the ledger of the exercise its date
 * falls in.
 */
import type { IsoDate } from '../../domain/calendar.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { NO_THIRD_PARTIES, decideLedger, type KnownThirdParty, type LedgerEvent, type LineInput, type ThirdPartyOrigin } from '../../domain/accounting/ledger.ts';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { exerciseForDate, type OrganisationState } from '../../domain/accounting/organisation.ts';
import { fail } from '../../domain/errors.ts';
import type { CommandContext } from '../aggregate-store.ts';
import { newId, parse, type CommandHandler } from '../handler.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import type { CommandServices } from '../services.ts';
import { LedgerAggregate } from './aggregates.ts';
import { entryCreated } from './answers.ts';
import { EntryUsingCodesInput, EntryUsingIdsInput } from './inputs.ts';

/** How an entry's lines name their third party: by the party's code, or by its id. */
export type ThirdPartyReference = 'code' | 'id';
type EntryHeader = { date: IsoDate; documentDate: IsoDate | null; documentNumber: string | null; description: string | null; journalTypeId: string };
type Resolved = { header: EntryHeader; lines: LineInput[] };

const ORIGIN: Record<PartyKind, ThirdPartyOrigin> = { customer: 'CUSTOMER', supplier: 'SUPPLIER', employee: 'EMPLOYEE' };

export const createAccountingEntryUsingCodes: CommandHandler = async (services, ctx, raw) => {
  const i = parse(EntryUsingCodesInput, raw);
  // A retry is answered before the codes are resolved again: they may have changed since.
  const replay = await services.aggregates.recorded<LedgerEvent>(ctx);
  if (replay) return entryCreated(replay);
  return postEntry(services, ctx, 'code', (org) => ({
    header: { ...i, journalTypeId: org.journalTypeIdByCode.get(i.journalTypeCode) ?? fail(AccountingErrors.journalTypeNotFound, { code: i.journalTypeCode }) },
    lines: i.accountingEntryLines.map((l, n) => ({
      subAccountId: org.accountIdByCode.get(l.subAccountCode) ?? fail(AccountingErrors.accountNotFound, { code: l.subAccountCode, line: n + 1 }),
      thirdCode: l.thirdCode, description: l.description, debitAmount: l.debitAmount ?? null, creditAmount: l.creditAmount ?? null,
    })),
  }));
};

export const createAccountingEntryUsingIds: CommandHandler = async (services, ctx, raw) => {
  const i = parse(EntryUsingIdsInput, raw);
  const lines: LineInput[] = i.accountingEntryLines.map((l) => ({
    subAccountId: l.subAccountId, thirdCode: l.thirdId ?? null, description: l.description, debitAmount: l.debitAmount ?? null, creditAmount: l.creditAmount ?? null,
  }));
  return postEntry(services, ctx, 'id', () => ({ header: i, lines }));
};

/**
 * Posts the entry `resolve` makes of the organisation, loaded once (one cache lookup and one catch-up
 * read) under the organisation's shared lock: no guarded deletion (account, journal type, party) runs
 * in any process until the append, so the exercise is chosen and the entry decided on that one state,
 * also when a conflict with another process's posting decides again. Other changes to the organisation
 * (a new account, a deactivation) order the posting before them, as they would if they came later.
 */
function postEntry(services: CommandServices, ctx: CommandContext, thirdPartiesBy: ThirdPartyReference, resolve: (org: OrganisationState) => Resolved) {
  return services.locks.shared(ctx.organisationId, async () => {
    const org = await services.organisation(ctx.organisationId);
    const { header, lines } = resolve(org);
    const exercise = exerciseForDate(org, header.date) ?? fail(AccountingErrors.noExerciseForDate, { date: header.date });
    const entryId = newId(ctx, 'entry');
    // The parties before the ledger's lock (no stream lock is ever waited on under a Ledger's: lock order), still under
    // the organisation's shared one: a party's deletion takes it alone, so none goes between this read and the append.
    const thirdParties = lines.some((l) => l.thirdCode) ? await knownThirdParty(services, ctx.organisationId, thirdPartiesBy) : NO_THIRD_PARTIES;
    const r = await services.aggregates.execute(LedgerAggregate, exercise.id, ctx, async (ledger) => {
      return decideLedger({
        type: 'PostAccountingEntry', entryId, lineIds: lines.map((_, i) => newId(ctx, 'line', i)), ...header, lines, sourceType: 'PUBLIC_API', now: services.now(),
      }, ledger, exercise, org, thirdParties);
    });
    return entryCreated(r);
  });
}

/** The live customer, supplier or employee of the organisation that has this code (or id). */
export async function knownThirdParty(services: CommandServices, organisationId: string, by: ThirdPartyReference): Promise<KnownThirdParty> {
  const { state } = await services.aggregates.load(PartiesAggregate, organisationId);
  const partyOf = (id: string | undefined) => {
    const party = id === undefined ? undefined : state.parties.get(id);
    return party && { id: party.id, code: party.code, origin: ORIGIN[party.kind] };
  };
  return by === 'code' ? (code) => partyOf(state.idByCode.get(code)) : partyOf;
}
