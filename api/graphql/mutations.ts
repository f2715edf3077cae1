/**
 * Every mutation in one table: its spec name, input and result types, the directives the spec's
 * table gives it, and the command it runs. The SDL and the resolvers are both generated from this.
 */
import type { z } from 'zod';
import {
  AccountCreateInput, AccountUpdateInput, EntryUsingCodesInput, EntryUsingIdsInput, ExerciseCreateInput, IdInput, JournalTypeCreateInput, JournalTypeUpdateInput,
  type AccountingCommands,
} from '../../commands/accounting/handlers.ts';
import type { CommandContext } from '../../commands/aggregate-store.ts';
import { requestFingerprint } from '../../commands/idempotency.ts';
import type { PartyCommands } from '../../commands/parties/handlers.ts';
import type { SettingsCommands } from '../../commands/settings/handlers.ts';
import type { GlobalPosition } from '../../eventstore/port.ts';
import { InputSdl } from './input-sdl.ts';
import { PARTY_MUTATIONS, partyMutationTypesSdl } from './party-mutations.ts';

export interface MutationDeps {
  commands: AccountingCommands;
  parties: PartyCommands;
  settings: SettingsCommands;
}

export interface MutationSpec {
  name: string;
  input: string;
  output: string;
  feature: 'CORE' | 'ACCOUNTING' | 'SALES' | 'EMPLOYEE_MANAGEMENT';
  accessControl: { name: string; resource: string; action: 'add' | 'update' | 'delete' };
  filter: 'NO_FILTER' | 'DE_FORBIDDEN';
  /** Validates the input and defines its GraphQL input type (the SDL is generated from it). */
  schema: z.ZodType;
  run(deps: MutationDeps, ctx: CommandContext, input: unknown): Promise<{ id: string; number?: number; code?: string; position: GlobalPosition | null }>;
}

const ACCOUNT = 'active/accounting/accounting-account';
const ENTRY = 'active/accounting/accounting-entry';
const EXERCISE = 'active/accounting/accounting-exercise';
const SHARED = 'active/shared-settings';

export const MUTATIONS: MutationSpec[] = ([
  { name: 'createAccountingAccount', input: 'AccountingAccountCreateGLDtoInput', output: 'AccountingAccountOutputCreateGLDto', schema: AccountCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-account', resource: ACCOUNT, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingAccount(c, i) },
  { name: 'updateAccountingAccount', input: 'AccountingAccountUpdateGLDtoInput', output: 'AccountingAccountOutputUpdateGLDto', schema: AccountUpdateInput, feature: 'CORE', accessControl: { name: 'update-accounting-account', resource: ACCOUNT, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.updateAccountingAccount(c, i) },
  { name: 'deleteAccountingAccount', input: 'AccountingAccountDeleteGLDtoInput', output: 'AccountingAccountOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-account', resource: ACCOUNT, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteAccountingAccount(c, i) },
  { name: 'createAccountingExercise', input: 'AccountingExerciseCreateGLDtoInput', output: 'AccountingExerciseOutputCreateGLDto', schema: ExerciseCreateInput, feature: 'CORE', accessControl: { name: 'add-accounting-exercise', resource: EXERCISE, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingExercise(c, i) },
  { name: 'closeAccountingExercise', input: 'AccountingExerciseCloseGLDtoInput', output: 'AccountingExerciseOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingExercise(c, i) },
  { name: 'closeAccountingPeriod', input: 'AccountingPeriodCloseGLDtoInput', output: 'AccountingPeriodOutputCloseGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingPeriod(c, i) },
  { name: 'reopenAccountingPeriod', input: 'AccountingPeriodReopenGLDtoInput', output: 'AccountingPeriodOutputReopenGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'update-accounting-exercise', resource: EXERCISE, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.closeAccountingPeriod(c, i, true) },
  { name: 'createAccountingEntryUsingCodes', input: 'AccountingEntryCreateUsingCodesGLDtoInput', output: 'AccountingEntryOutputCreateUsingCodesGLDto', schema: EntryUsingCodesInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingEntryUsingCodes(c, i) },
  { name: 'createAccountingEntryUsingIds', input: 'AccountingEntryCreateUsingIdsGLDtoInput', output: 'AccountingEntryOutputCreateUsingIdsGLDto', schema: EntryUsingIdsInput, feature: 'CORE', accessControl: { name: 'add-accounting-entry', resource: ENTRY, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createAccountingEntryUsingIds(c, i) },
  { name: 'deleteAccountingEntry', input: 'AccountingEntryDeleteGLDtoInput', output: 'AccountingEntryOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-accounting-entry', resource: ENTRY, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteAccountingEntry(c, i) },
  { name: 'createJournalType', input: 'JournalTypeCreateGLDtoInput', output: 'JournalTypeOutputCreateGLDto', schema: JournalTypeCreateInput, feature: 'CORE', accessControl: { name: 'add-shared-settings', resource: SHARED, action: 'add' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.createJournalType(c, i) },
  { name: 'updateJournalType', input: 'JournalTypeUpdateGLDtoInput', output: 'JournalTypeOutputUpdateGLDto', schema: JournalTypeUpdateInput, feature: 'CORE', accessControl: { name: 'update-shared-settings', resource: SHARED, action: 'update' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.updateJournalType(c, i) },
  { name: 'deleteJournalType', input: 'JournalTypeDeleteGLDtoInput', output: 'JournalTypeOutputDeleteGLDto', schema: IdInput, feature: 'CORE', accessControl: { name: 'delete-shared-settings', resource: SHARED, action: 'delete' }, filter: 'NO_FILTER', run: (d, c, i) => d.commands.deleteJournalType(c, i) },
  ...PARTY_MUTATIONS,
] as MutationSpec[]).map(keyedToTheRequest);

/**
 * With an idempotency key, the command carries the request's fingerprint, and a key already used for
 * another request is refused before the handler reads anything (its checks would answer for the new input).
 */
function keyedToTheRequest(spec: MutationSpec): MutationSpec {
  return {
    ...spec,
    async run(deps, ctx, input) {
      if (!ctx.commandId) return spec.run(deps, ctx, input);
      const keyed = { ...ctx, requestFingerprint: requestFingerprint(spec.name, input) };
      await deps.commands.aggregates.recorded(keyed);
      return spec.run(deps, keyed, input);
    },
  };
}

/** Input types (generated from the commands' zod schemas) and result types of the mutations above. */
export const MUTATION_TYPES_SDL = `
${inputTypesSdl()}
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

function inputTypesSdl(): string {
  const inputs = new InputSdl();
  for (const mutation of MUTATIONS) inputs.define(mutation.input, mutation.schema);
  return inputs.sdl();
}
