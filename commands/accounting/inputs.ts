/** The accounting mutations' inputs: each zod schema validates one and is its GraphQL input type. */
import { z } from 'zod';
import { toIsoDate } from '../../domain/calendar.ts';
import { AccountLevel, AccountType, CreditNoteReason, JournalTypeType, SubAccountType } from '../../domain/accounting/enums.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import { Reasons } from '../../domain/errors.ts';
import { Feature } from '../../domain/accounting/organisation.ts';
import { gql, named } from '../input-types.ts';

// Each input schema is also its GraphQL input type (api/graphql/input-sdl.ts generates the SDL from it):
// nested objects, enums and scalars carry their GraphQL names (commands/input-types.ts).
const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => text(max).nullish().transform((v) => v ?? null);
const date = named('DateTime', z.string().transform((v, ctx) => toIsoDate(v) ?? (ctx.addIssue({ code: 'custom', message: Reasons.notDate }), z.NEVER)));
const optionalDate = date.nullish().transform((v) => v ?? null);
const uuid = gql.uuid;
const amount = gql.decimal.nullish();

export const AccountCreateInput = z.object({
  code: z.string().min(1).max(20),
  name: text(200).min(1),
  description: optionalText(1000),
  accountLevel: gql.enumOf('AccountLevel', AccountLevel).optional(),
  accountType: gql.enumOf('AccountType', AccountType).optional(),
  subAccountType: gql.enumOf('SubAccountType', SubAccountType).optional(),
  applyVat: z.boolean().optional(),
  exportAccountNumber: optionalText(50),
  exportAutomaticAccount: z.boolean().optional(),
  includedEurForGermany: z.boolean().optional(),
  taxonomy: gql.int.nullish(),
  deactivated: z.boolean().optional(),
  yearEndClosingAccountId: uuid.nullish(),
  transitionalPrepaymentAccountId: uuid.nullish(),
  taxTreatmentId: uuid.nullish(),
});
export const AccountUpdateInput = AccountCreateInput.omit({ code: true, accountLevel: true }).partial().extend({ id: uuid });
export const IdInput = z.object({ id: uuid });
/** Lock dates: a field left out stays as it is; null lifts the lock date (the hard one is never lifted). */
export const LockDatesInput = z.object({ lockDate: date.nullish(), hardLockDate: date.nullish() });
export const JournalTypeCreateInput = z.object({
  code: z.string().min(1).max(20),
  name: text(200).min(1),
  type: gql.enumOf('JournalTypeType', JournalTypeType),
  isCreditNote: z.boolean().optional(),
  creditNoteReason: gql.enumOf('CreditNoteReason', CreditNoteReason).nullish(),
  accountingAccountId: uuid.nullish(),
  deactivated: z.boolean().optional(),
});
export const JournalTypeUpdateInput = JournalTypeCreateInput.omit({ code: true }).partial().extend({ id: uuid });
/**
 * Sage's shape { exercise, description, startDate, numberPeriods } [pm-083], and ours with endDate: one of endDate and
 * numberPeriods, or both in agreement (the decider checks). Description stays optional as our clients send none.
 */
export const ExerciseCreateInput = z.object({
  exercise: gql.int.nullish().transform((v) => v ?? null),
  description: optionalText(500),
  startDate: date,
  endDate: optionalDate,
  numberPeriods: gql.int.nullish().transform((v) => v ?? null),
});
const entryHeader = {
  description: optionalText(500),
  date,
  documentDate: optionalDate,
  documentNumber: optionalText(100),
};
const lineCommon = { description: optionalText(500), debitAmount: amount, creditAmount: amount };
export const EntryUsingCodesInput = z.object({
  ...entryHeader,
  journalTypeCode: z.string().min(1).max(20),
  // No minimum here: the ledger answers tooFewLines for none as for one.
  accountingEntryLines: z.array(named('AccountingEntryLineCreateUsingCodesGLDtoInput', z.object({ subAccountCode: z.string().min(1).max(20), thirdCode: optionalText(50), ...lineCommon }))).max(500),
});
export const EntryUsingIdsInput = z.object({
  ...entryHeader,
  journalTypeId: uuid,
  accountingEntryLines: z.array(named('AccountingEntryLineCreateUsingIdsGLDtoInput', z.object({ subAccountId: uuid, thirdId: uuid.nullish(), ...lineCommon }))).max(500),
});
export const OrganisationCreateInput = z.object({
  name: text(200).min(1),
  country: z.enum(OrganisationCountry),
  features: z.array(z.enum(Feature)).default([...Feature]),
});

