/** The accounting mutations (spec 2.7): chart, journal types, exercises and periods, entries. */
import type { MutationSpec } from '../mutation.ts';
import type { CommandServices } from '../services.ts';
import { AccountingCommands } from './handlers.ts';
import { AccountCreateInput, AccountUpdateInput, EntryUsingCodesInput, EntryUsingIdsInput, ExerciseCreateInput, IdInput, JournalTypeCreateInput, JournalTypeUpdateInput } from './inputs.ts';

const handlers = (s: CommandServices) => new AccountingCommands(s.aggregates, s.locks);

const ACCOUNT = 'active/accounting/accounting-account';
const ENTRY = 'active/accounting/accounting-entry';
const EXERCISE = 'active/accounting/accounting-exercise';
const SHARED = 'active/shared-settings';

export const ACCOUNTING_MUTATIONS: MutationSpec[] = [
  { name: 'createAccountingAccount', input: 'AccountingAccountCreateGLDtoInput', output: 'AccountingAccountOutputCreateGLDto', schema: AccountCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-account', resource: ACCOUNT, action: 'add' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).createAccountingAccount(c, i) },
  { name: 'updateAccountingAccount', input: 'AccountingAccountUpdateGLDtoInput', output: 'AccountingAccountOutputUpdateGLDto', schema: AccountUpdateInput, feature: 'CORE', accessControl: { name: 'update-accounting-account', resource: ACCOUNT, action: 'update' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).updateAccountingAccount(c, i) },
  { name: 'deleteAccountingAccount', input: 'AccountingAccountDeleteGLDtoInput', output: 'AccountingAccountOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-account', resource: ACCOUNT, action: 'delete' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).deleteAccountingAccount(c, i) },
  { name: 'createAccountingExercise', input: 'AccountingExerciseCreateGLDtoInput', output: 'AccountingExerciseOutputCreateGLDto', schema: ExerciseCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-exercise', resource: EXERCISE, action: 'add' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).createAccountingExercise(c, i) },
  { name: 'closeAccountingExercise', input: 'AccountingExerciseCloseGLDtoInput', output: 'AccountingExerciseOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).closeAccountingExercise(c, i) },
  { name: 'closeAccountingPeriod', input: 'AccountingPeriodCloseGLDtoInput', output: 'AccountingPeriodOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).closeAccountingPeriod(c, i) },
  { name: 'reopenAccountingPeriod', input: 'AccountingPeriodReopenGLDtoInput', output: 'AccountingPeriodOutputReopenGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).closeAccountingPeriod(c, i, true) },
  { name: 'createAccountingEntryUsingCodes', input: 'AccountingEntryCreateUsingCodesGLDtoInput', output: 'AccountingEntryOutputCreateUsingCodesGLDto', schema: EntryUsingCodesInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', returns: { number: true }, run: (s, c, i) => handlers(s).createAccountingEntryUsingCodes(c, i) },
  { name: 'createAccountingEntryUsingIds', input: 'AccountingEntryCreateUsingIdsGLDtoInput', output: 'AccountingEntryOutputCreateUsingIdsGLDto', schema: EntryUsingIdsInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', returns: { number: true }, run: (s, c, i) => handlers(s).createAccountingEntryUsingIds(c, i) },
  { name: 'deleteAccountingEntry', input: 'AccountingEntryDeleteGLDtoInput', output: 'AccountingEntryOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-entry', resource: ENTRY, action: 'delete' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).deleteAccountingEntry(c, i) },
  { name: 'createJournalType', input: 'JournalTypeCreateGLDtoInput', output: 'JournalTypeOutputCreateGLDto', schema: JournalTypeCreateInput, feature: 'CORE', accessControl: { name: 'add-shared-settings', resource: SHARED, action: 'add' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).createJournalType(c, i) },
  { name: 'updateJournalType', input: 'JournalTypeUpdateGLDtoInput', output: 'JournalTypeOutputUpdateGLDto', schema: JournalTypeUpdateInput, feature: 'CORE', accessControl: { name: 'update-shared-settings', resource: SHARED, action: 'update' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).updateJournalType(c, i) },
  { name: 'deleteJournalType', input: 'JournalTypeDeleteGLDtoInput', output: 'JournalTypeOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-shared-settings', resource: SHARED, action: 'delete' }, filter: 'NO_FILTER', run: (s, c, i) => handlers(s).deleteJournalType(c, i) },
];
