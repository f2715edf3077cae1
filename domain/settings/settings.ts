/**
 * The SharedSettings aggregate: what parties and documents of an organisation refer to (business
 * areas, job areas, payment means, payment terms). One stream per organisation: `SharedSettings-<id>`,
 * so codes and names are unique and a deletion sees every reference made inside it. References from
 * parties are passed in as facts (the Parties aggregate counts them). Pure decider.
 */
import type { PaymentMethodType } from './enums.ts';
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { AccountingErrors } from '../accounting/errors.ts';
import { SettingsErrors } from './errors.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import { decidePaymentTermLines, type PaymentTermLine, type PaymentTermLineInput } from './payment-terms.ts';
import { checkBic, checkIban } from '../parties/validation.ts';

export interface PaymentMeanFields {
  code: string;
  name: string;
  type: PaymentMethodType;
  iban: string | null;
  bic: string | null;
  bankName: string | null;
  accountingAccountId: string | null;
  disabled: boolean;
}

export type SettingsEvent =
  | { type: 'BusinessAreaCreated'; data: { businessAreaId: string; name: string; at: string } }
  | { type: 'BusinessAreaDeleted'; data: { businessAreaId: string; name: string; at: string } }
  | { type: 'JobAreaCreated'; data: { jobAreaId: string; name: string; at: string } }
  | { type: 'PaymentMeanCreated'; data: { paymentMeanId: string; at: string } & PaymentMeanFields }
  | { type: 'PaymentMeanDeleted'; data: { paymentMeanId: string; code: string; at: string } }
  | { type: 'PaymentTermCreated'; data: { paymentTermId: string; code: string; name: string; disabled: boolean; lines: PaymentTermLine[]; at: string } }
  | { type: 'PaymentTermDeleted'; data: { paymentTermId: string; code: string; at: string } };

export const SETTINGS_EVENT_TYPES = [
  'BusinessAreaCreated', 'BusinessAreaDeleted', 'JobAreaCreated', 'PaymentMeanCreated', 'PaymentMeanDeleted', 'PaymentTermCreated', 'PaymentTermDeleted',
] as const satisfies readonly SettingsEvent['type'][];

export interface SettingsState {
  businessAreas: Map<string, string>; // id -> name
  jobAreas: Map<string, string>;
  paymentMeans: Map<string, { code: string }>;
  paymentTerms: Map<string, { code: string; paymentMeanIds: string[] }>;
  /** Case-insensitive names and codes in use, per kind (`businessArea:retail`, `paymentMean:TRF`). */
  taken: Set<string>;
}

export const initialSettingsState = (): SettingsState => ({
  businessAreas: new Map(), jobAreas: new Map(), paymentMeans: new Map(), paymentTerms: new Map(), taken: new Set(),
});

export type SettingsCommand =
  | { type: 'CreateBusinessArea'; businessAreaId: string; name: string; now: string }
  | { type: 'DeleteBusinessArea'; businessAreaId: string; usedByParties: boolean; now: string }
  | { type: 'CreateJobArea'; jobAreaId: string; name: string; now: string }
  | { type: 'CreatePaymentMean'; paymentMeanId: string; fields: PaymentMeanFields; now: string }
  | { type: 'DeletePaymentMean'; paymentMeanId: string; usedByParties: boolean; now: string }
  | { type: 'CreatePaymentTerm'; paymentTermId: string; code: string; name: string; disabled: boolean; lines: PaymentTermLineInput[]; now: string }
  | { type: 'DeletePaymentTerm'; paymentTermId: string; now: string };

export const SETTINGS_LIMITS = Object.freeze({ maxPerKind: 10_000 });

const key = (kind: string, name: string) => `${kind}:${name.trim().toLowerCase()}`;


function checkNew(state: SettingsState, kind: string, name: string, id: string, ids: Map<string, unknown>, field: string): void {
  if (name.trim().length === 0) fail(Errors.invalidInput, { field, reason: Reasons.empty });
  if (state.taken.has(key(kind, name))) fail(SettingsErrors.settingAlreadyExists, { entity: kind, [field]: name });
  if (ids.has(id)) fail(Errors.documentIdAlreadyExists, { id });
  if (ids.size >= SETTINGS_LIMITS.maxPerKind) fail(Errors.invalidInput, { field, reason: Reasons.tooMany, limit: SETTINGS_LIMITS.maxPerKind });
}

export function decideSettings(command: SettingsCommand, state: SettingsState, organisation: OrganisationState): SettingsEvent[] {
  const at = command.now;
  if (!organisation.id) fail(Errors.organisationNotFound);
  switch (command.type) {
    case 'CreateBusinessArea':
      checkNew(state, 'businessArea', command.name, command.businessAreaId, state.businessAreas, 'name');
      return [{ type: 'BusinessAreaCreated', data: { businessAreaId: command.businessAreaId, name: command.name.trim(), at } }];
    case 'DeleteBusinessArea': {
      const name = state.businessAreas.get(command.businessAreaId) ?? fail(SettingsErrors.settingNotFound, { entity: 'businessArea', id: command.businessAreaId });
      if (command.usedByParties) fail(SettingsErrors.settingInUse, { entity: 'businessArea', name });
      return [{ type: 'BusinessAreaDeleted', data: { businessAreaId: command.businessAreaId, name, at } }];
    }
    case 'CreateJobArea':
      checkNew(state, 'jobArea', command.name, command.jobAreaId, state.jobAreas, 'name');
      return [{ type: 'JobAreaCreated', data: { jobAreaId: command.jobAreaId, name: command.name.trim(), at } }];
    case 'CreatePaymentMean': {
      const f = command.fields;
      checkCode(f.code, CODE_LENGTH.paymentMean);
      checkNew(state, 'paymentMean', f.code, command.paymentMeanId, state.paymentMeans, 'code');
      const account = f.accountingAccountId ? organisation.accounts.get(f.accountingAccountId) ?? fail(AccountingErrors.accountNotFound, { id: f.accountingAccountId, field: 'accountingAccountId' }) : null;
      if (account?.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code });
      const fields: PaymentMeanFields = { ...f, iban: f.iban ? checkIban(f.iban, 'iban') : null, bic: f.bic ? checkBic(f.bic, 'bic') : null };
      return [{ type: 'PaymentMeanCreated', data: { paymentMeanId: command.paymentMeanId, at, ...fields } }];
    }
    case 'DeletePaymentMean': {
      const mean = state.paymentMeans.get(command.paymentMeanId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentMean', id: command.paymentMeanId });
      const inTerms = [...state.paymentTerms.values()].some((t) => t.paymentMeanIds.includes(command.paymentMeanId));
      if (command.usedByParties || inTerms) fail(SettingsErrors.settingInUse, { entity: 'paymentMean', name: mean.code });
      return [{ type: 'PaymentMeanDeleted', data: { paymentMeanId: command.paymentMeanId, code: mean.code, at } }];
    }
    case 'CreatePaymentTerm': {
      checkCode(command.code, CODE_LENGTH.paymentTerm);
      checkNew(state, 'paymentTerm', command.code, command.paymentTermId, state.paymentTerms, 'code');
      if (command.lines.length === 0) fail(SettingsErrors.invalidPaymentTermLines, { field: 'lines', reason: Reasons.termNeedsLine });
      const lines = decidePaymentTermLines(command.lines, (id) => state.paymentMeans.has(id), 'lines');
      return [{ type: 'PaymentTermCreated', data: { paymentTermId: command.paymentTermId, code: command.code, name: command.name, disabled: command.disabled, lines, at } }];
    }
    case 'DeletePaymentTerm': {
      const term = state.paymentTerms.get(command.paymentTermId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentTerm', id: command.paymentTermId });
      return [{ type: 'PaymentTermDeleted', data: { paymentTermId: command.paymentTermId, code: term.code, at } }];
    }
  }
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped.
 */
export function evolveSettings(state: SettingsState, event: SettingsEvent): SettingsState {
  const type = event.type;
  /** Records a new setting of `kind` whose id and (case-insensitive) name or code must both be free. */
  const created = <V>(kind: string, ids: Map<string, V>, id: string, name: string, value: V) => {
    assert(!ids.has(id), `${type} of ${kind} ${id}, which exists already`);
    assert(!state.taken.has(key(kind, name)), `${type} of ${kind} ${id} named ${name}, which another ${kind} has`);
    ids.set(id, value);
    state.taken.add(key(kind, name));
    return state;
  };
  const deleted = (kind: string, ids: Map<string, unknown>, id: string, name: string) => {
    assert(ids.has(id), `${type} of ${kind} ${id}, which does not exist`);
    ids.delete(id);
    state.taken.delete(key(kind, name));
    return state;
  };
  switch (event.type) {
    case 'BusinessAreaCreated':
      return created('businessArea', state.businessAreas, event.data.businessAreaId, event.data.name, event.data.name);
    case 'BusinessAreaDeleted':
      return deleted('businessArea', state.businessAreas, event.data.businessAreaId, event.data.name);
    case 'JobAreaCreated':
      return created('jobArea', state.jobAreas, event.data.jobAreaId, event.data.name, event.data.name);
    case 'PaymentMeanCreated':
      return created('paymentMean', state.paymentMeans, event.data.paymentMeanId, event.data.code, { code: event.data.code });
    case 'PaymentMeanDeleted':
      return deleted('paymentMean', state.paymentMeans, event.data.paymentMeanId, event.data.code);
    case 'PaymentTermCreated': {
      const paymentMeanIds = event.data.lines.map((l) => l.paymentMeanId).filter((id): id is string => id !== null);
      return created('paymentTerm', state.paymentTerms, event.data.paymentTermId, event.data.code, { code: event.data.code, paymentMeanIds });
    }
    case 'PaymentTermDeleted':
      return deleted('paymentTerm', state.paymentTerms, event.data.paymentTermId, event.data.code);
    default:
      return unknownEvent('SharedSettings', event);
  }
}
