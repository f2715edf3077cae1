/** The accounting mutations (spec 2.7): chart, journal types, exercises and periods, entries. */
import type { MutationSpec } from '../mutation.ts';
import { createAccountingAccount, createJournalType, deleteAccountingAccount, deleteJournalType, updateAccountingAccount, updateJournalType } from './chart.ts';
import { deleteAccountingEntry } from './entry-deletion.ts';
import { closeAccountingPeriod, createAccountingExercise, reopenAccountingPeriod } from './exercises.ts';
import { AccountCreateInput, AccountUpdateInput, EntryUsingCodesInput, EntryUsingIdsInput, ExerciseCreateInput, IdInput, JournalTypeCreateInput, JournalTypeUpdateInput, LockDatesInput } from './inputs.ts';
import { updateAccountingLockDates } from './lock-dates.ts';
import { closeAccountingExercise, reopenAccountingExercise } from './year-end.ts';
import { createAccountingEntryUsingCodes, createAccountingEntryUsingIds } from './postings.ts';

const ACCOUNT = 'active/accounting/accounting-account';
const ENTRY = 'active/accounting/accounting-entry';
const EXERCISE = 'active/accounting/accounting-exercise';
const SHARED = 'active/shared-settings';
/** Ours (Sage has no lock dates): administrators only (modules/accounting.ts). */
export const LOCK_DATES = 'active/accounting/accounting-lock-dates';

export const ACCOUNTING_MUTATIONS: MutationSpec[] = [
  { name: 'createAccountingAccount', input: 'AccountingAccountCreateGLDtoInput', output: 'AccountingAccountOutputCreateGLDto', schema: AccountCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-account', resource: ACCOUNT, action: 'add' }, filter: 'NO_FILTER', run: createAccountingAccount },
  { name: 'updateAccountingAccount', input: 'AccountingAccountUpdateGLDtoInput', output: 'AccountingAccountOutputUpdateGLDto', schema: AccountUpdateInput, feature: 'CORE', accessControl: { name: 'update-accounting-account', resource: ACCOUNT, action: 'update' }, filter: 'NO_FILTER', run: updateAccountingAccount },
  { name: 'deleteAccountingAccount', input: 'AccountingAccountDeleteGLDtoInput', output: 'AccountingAccountOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-account', resource: ACCOUNT, action: 'delete' }, filter: 'NO_FILTER', run: deleteAccountingAccount },
  { name: 'createAccountingExercise', input: 'AccountingExerciseCreateGLDtoInput', output: 'AccountingExerciseOutputCreateGLDto', schema: ExerciseCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-exercise', resource: EXERCISE, action: 'add' }, filter: 'NO_FILTER', run: createAccountingExercise },
  { name: 'closeAccountingExercise', input: 'AccountingExerciseCloseGLDtoInput', output: 'AccountingExerciseOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: closeAccountingExercise },
  { name: 'reopenAccountingExercise', input: 'AccountingExerciseReopenGLDtoInput', output: 'AccountingExerciseOutputReopenGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: reopenAccountingExercise },
  { name: 'updateAccountingLockDates', input: 'AccountingLockDatesUpdateGLDtoInput', output: 'AccountingLockDatesOutputUpdateGLDto', schema: LockDatesInput, feature: 'CORE', accessControl: { name: 'update-accounting-lock-dates', resource: LOCK_DATES, action: 'update' }, filter: 'NO_FILTER', returns: { fields: 'lockDate: DateTime hardLockDate: DateTime' }, run: updateAccountingLockDates },
  { name: 'closeAccountingPeriod', input: 'AccountingPeriodCloseGLDtoInput', output: 'AccountingPeriodOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: closeAccountingPeriod },
  { name: 'reopenAccountingPeriod', input: 'AccountingPeriodReopenGLDtoInput', output: 'AccountingPeriodOutputReopenGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: reopenAccountingPeriod },
  { name: 'createAccountingEntryUsingCodes', input: 'AccountingEntryCreateUsingCodesGLDtoInput', output: 'AccountingEntryOutputCreateUsingCodesGLDto', schema: EntryUsingCodesInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', returns: { number: true }, run: createAccountingEntryUsingCodes },
  { name: 'createAccountingEntryUsingIds', input: 'AccountingEntryCreateUsingIdsGLDtoInput', output: 'AccountingEntryOutputCreateUsingIdsGLDto', schema: EntryUsingIdsInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', returns: { number: true }, run: createAccountingEntryUsingIds },
  { name: 'deleteAccountingEntry', input: 'AccountingEntryDeleteGLDtoInput', output: 'AccountingEntryOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-entry', resource: ENTRY, action: 'delete' }, filter: 'NO_FILTER', run: deleteAccountingEntry },
  { name: 'createJournalType', input: 'JournalTypeCreateGLDtoInput', output: 'JournalTypeOutputCreateGLDto', schema: JournalTypeCreateInput, feature: 'CORE', accessControl: { name: 'add-shared-settings', resource: SHARED, action: 'add' }, filter: 'NO_FILTER', run: createJournalType },
  { name: 'updateJournalType', input: 'JournalTypeUpdateGLDtoInput', output: 'JournalTypeOutputUpdateGLDto', schema: JournalTypeUpdateInput, feature: 'CORE', accessControl: { name: 'update-shared-settings', resource: SHARED, action: 'update' }, filter: 'NO_FILTER', run: updateJournalType },
  { name: 'deleteJournalType', input: 'JournalTypeDeleteGLDtoInput', output: 'JournalTypeOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-shared-settings', resource: SHARED, action: 'delete' }, filter: 'NO_FILTER', run: deleteJournalType },
];
