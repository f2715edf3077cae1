/**
 * Every mutation in one table: its spec name, input and result types, the directives the spec's
 * table gives it, and the command it runs. The SDL and the resolvers are both generated from this.
 */
import type { AccountingCommands } from '../../commands/accounting.ts';
import type { CommandContext } from '../../commands/aggregate-store.ts';
import type { PartyCommands } from '../../commands/parties.ts';
import type { SettingsCommands } from '../../commands/settings.ts';
import type { GlobalPosition } from '../../eventstore/port.ts';
import { PARTY_MUTATIONS, partyMutationTypesSdl } from './party-mutations.ts';

export interface MutationDeps {
  commands: AccountingCommands;
  parties: PartyCommands;
  settings: SettingsCommands;
  exerciseIdOfEntry(organisationId: string, entryId: string): Promise<string | undefined>;
}

export interface MutationSpec {
  name: string;
  input: string;
  output: string;
  feature: 'CORE' | 'ACCOUNTING' | 'SALES' | 'EMPLOYEE_MANAGEMENT';
  accessControl: { name: string; resource: string; action: 'add' | 'update' | 'delete' };
  filter: 'NO_FILTER' | 'DE_FORBIDDEN';
  run(deps: MutationDeps, ctx: CommandContext, input: unknown): Promise<{ id: string; number?: number; code?: string; position: GlobalPosition | null }>;
}

const ACCOUNT = 'active/accounting/accounting-account';
const ENTRY = 'active/accounting/accounting-entry';
const EXERCISE = 'active/accounting/accounting-exercise';
const SHARED = 'active/shared-settings';

export const MUTATIONS: MutationSpec[] = [
  { name: 'createAccountingAccount', input: 'AccountingAccountCreateGLDtoInput', output: 'AccountingAccountOutputCreateGLDto', feature: 'CORE', accessControl: { name: 'add-accounting-account', resource: ACCOUNT, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingAccount(c, i) },
  { name: 'updateAccountingAccount', input: 'AccountingAccountUpdateGLDtoInput', output: 'AccountingAccountOutputUpdateGLDto', feature: 'CORE', accessControl: { name: 'update-accounting-account', resource: ACCOUNT, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.updateAccountingAccount(c, i) },
  { name: 'deleteAccountingAccount', input: 'AccountingAccountDeleteGLDtoInput', output: 'AccountingAccountOutputDeleteGLDto', feature: 'CORE', accessControl: { name: 'delete-accounting-account', resource: ACCOUNT, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteAccountingAccount(c, i) },
  { name: 'createAccountingExercise', input: 'AccountingExerciseCreateGLDtoInput', output: 'AccountingExerciseOutputCreateGLDto', feature: 'CORE', accessControl: { name: 'add-accounting-exercise', resource: EXERCISE, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingExercise(c, i) },
  { name: 'closeAccountingExercise', input: 'AccountingExerciseCloseGLDtoInput', output: 'AccountingExerciseOutputCloseGLDto', feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingExercise(c, i) },
  { name: 'closeAccountingPeriod', input: 'AccountingPeriodCloseGLDtoInput', output: 'AccountingPeriodOutputCloseGLDto', feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingPeriod(c, i) },
  { name: 'reopenAccountingPeriod', input: 'AccountingPeriodReopenGLDtoInput', output: 'AccountingPeriodOutputReopenGLDto', feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingPeriod(c, i, true) },
  { name: 'createAccountingEntryUsingCodes', input: 'AccountingEntryCreateUsingCodesGLDtoInput', output: 'AccountingEntryOutputCreateUsingCodesGLDto', feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingEntryUsingCodes(c, i) },
  { name: 'createAccountingEntryUsingIds', input: 'AccountingEntryCreateUsingIdsGLDtoInput', output: 'AccountingEntryOutputCreateUsingIdsGLDto', feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingEntryUsingIds(c, i) },
  { name: 'deleteAccountingEntry', input: 'AccountingEntryDeleteGLDtoInput', output: 'AccountingEntryOutputDeleteGLDto', feature: 'CORE', accessControl: { name: 'delete-accounting-entry', resource: ENTRY, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteAccountingEntry(c, i, (id) => d.exerciseIdOfEntry(c.organisationId, id)) },
  { name: 'createJournalType', input: 'JournalTypeCreateGLDtoInput', output: 'JournalTypeOutputCreateGLDto', feature: 'CORE', accessControl: { name: 'add-shared-settings', resource: SHARED, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createJournalType(c, i) },
  { name: 'updateJournalType', input: 'JournalTypeUpdateGLDtoInput', output: 'JournalTypeOutputUpdateGLDto', feature: 'CORE', accessControl: { name: 'update-shared-settings', resource: SHARED, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.updateJournalType(c, i) },
  { name: 'deleteJournalType', input: 'JournalTypeDeleteGLDtoInput', output: 'JournalTypeOutputDeleteGLDto', feature: 'CORE', accessControl: { name: 'delete-shared-settings', resource: SHARED, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteJournalType(c, i) },
  ...PARTY_MUTATIONS,
];

/** What an account's create and update inputs share (code and level are fixed once created). */
const ACCOUNT_FIELDS = `
  description: String
  accountType: AccountType
  subAccountType: SubAccountType
  applyVat: Boolean
  exportAccountNumber: String
  exportAutomaticAccount: Boolean
  includedEurForGermany: Boolean
  taxonomy: Int
  deactivated: Boolean
  yearEndClosingAccountId: UUID
  transitionalPrepaymentAccountId: UUID
  taxTreatmentId: UUID`.slice(1);

/** Input and result types of the mutations above (the spec shows result fields; inputs follow DESIGN.md). */
export const MUTATION_TYPES_SDL = `
input AccountingAccountCreateGLDtoInput {
  code: String!
  name: String!
  accountLevel: AccountLevel
${ACCOUNT_FIELDS}
}
input AccountingAccountUpdateGLDtoInput {
  id: UUID!
  name: String
${ACCOUNT_FIELDS}
}
input AccountingAccountDeleteGLDtoInput { id: UUID! }
input AccountingExerciseCreateGLDtoInput { startDate: DateTime! endDate: DateTime! description: String }
input AccountingExerciseCloseGLDtoInput { id: UUID! }
input AccountingPeriodCloseGLDtoInput { id: UUID! }
input AccountingPeriodReopenGLDtoInput { id: UUID! }
input AccountingEntryLineCreateUsingCodesGLDtoInput {
  subAccountCode: String!
  thirdCode: String
  description: String
  debitAmount: Decimal
  creditAmount: Decimal
}
input AccountingEntryCreateUsingCodesGLDtoInput {
  description: String
  date: DateTime!
  documentDate: DateTime
  documentNumber: String
  journalTypeCode: String!
  accountingEntryLines: [AccountingEntryLineCreateUsingCodesGLDtoInput!]!
}
input AccountingEntryLineCreateUsingIdsGLDtoInput {
  subAccountId: UUID!
  thirdId: UUID
  description: String
  debitAmount: Decimal
  creditAmount: Decimal
}
input AccountingEntryCreateUsingIdsGLDtoInput {
  description: String
  date: DateTime!
  documentDate: DateTime
  documentNumber: String
  journalTypeId: UUID!
  accountingEntryLines: [AccountingEntryLineCreateUsingIdsGLDtoInput!]!
}
input AccountingEntryDeleteGLDtoInput { id: UUID! }
input JournalTypeCreateGLDtoInput {
  code: String!
  name: String!
  type: JournalTypeType!
  isCreditNote: Boolean
  creditNoteReason: CreditNoteReason
  accountingAccountId: UUID
  deactivated: Boolean
}
input JournalTypeUpdateGLDtoInput {
  id: UUID!
  name: String
  type: JournalTypeType
  isCreditNote: Boolean
  creditNoteReason: CreditNoteReason
  accountingAccountId: UUID
  deactivated: Boolean
}
input JournalTypeDeleteGLDtoInput { id: UUID! }

type AccountingAccountOutputCreateGLDto { id: UUID! }
type AccountingAccountOutputUpdateGLDto { id: UUID! }
type AccountingAccountOutputDeleteGLDto { id: UUID! }
type AccountingExerciseOutputCreateGLDto { id: UUID! }
type AccountingExerciseOutputCloseGLDto { id: UUID! }
type AccountingPeriodOutputCloseGLDto { id: UUID! }
type AccountingPeriodOutputReopenGLDto { id: UUID! }
type AccountingEntryOutputCreateGLDto { id: UUID! number: Int }
type AccountingEntryOutputCreateUsingCodesGLDto { id: UUID! number: Int }
type AccountingEntryOutputCreateUsingIdsGLDto { id: UUID! number: Int }
type AccountingEntryOutputDeleteGLDto { id: UUID! }
type JournalTypeOutputCreateGLDto { id: UUID! }
type JournalTypeOutputUpdateGLDto { id: UUID! }
type JournalTypeOutputDeleteGLDto { id: UUID! }
${partyMutationTypesSdl()}`;
