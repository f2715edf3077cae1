/**
 * The SharedSettings aggregate: what parties and documents of an organisation refer to (business
 * areas, job areas, payment means, payment methods, payment terms). One stream per organisation: `SharedSettings-<id>`,
 * so codes and names are unique and a deletion sees every reference made inside it. References from
 * parties are passed in as facts (the Parties aggregate counts them). Pure decider.
 */
import type { PaymentMeanType } from './enums.ts';
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { SettingsErrors } from './errors.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import { decidePaymentTermLines, type PaymentTermLine, type PaymentTermLineInput } from './payment-terms.ts';
import { checkedBankDetails, decidePaymentMethodFields, type PaymentMethodChanges, type PaymentMethodFields } from './payment-methods.ts';
import { AccountingErrors } from '../accounting/errors.ts';

/**
 * A payment mean in Sage's shape: its description is its business id (unique, at most 20 characters).
 * Our fields from before issue 17 stay as optional extras Sage's shape does not contradict: a code
 * (unique when given), the bank details and the accounting account its payments go to.
 */
export interface PaymentMeanFields {
  description: string;
  type: PaymentMeanType;
  inactive: boolean;
  code: string | null;
  iban: string | null;
  bic: string | null;
  bankName: string | null;
  accountingAccountId: string | null;
}

export const PAYMENT_MEAN_DESCRIPTION_LENGTH = 20;

export type SettingsEvent =
  | { type: 'BusinessAreaCreated'; data: { businessAreaId: string; name: string; at: string } }
  | { type: 'BusinessAreaDeleted'; data: { businessAreaId: string; name: string; at: string } }
  | { type: 'JobAreaCreated'; data: { jobAreaId: string; name: string; at: string } }
  | { type: 'PaymentMeanCreated'; data: { paymentMeanId: string; at: string } & PaymentMeanFields }
  | { type: 'PaymentMeanDeleted'; data: { paymentMeanId: string; code: string | null; description: string; at: string } }
  | { type: 'PaymentMethodCreated'; data: { paymentMethodId: string; at: string } & PaymentMethodFields }
  | { type: 'PaymentMethodUpdated'; data: { paymentMethodId: string; referenceName: string; changes: PaymentMethodChanges; at: string } }
  | { type: 'PaymentMethodDeleted'; data: { paymentMethodId: string; referenceName: string; at: string } }
  | { type: 'PaymentTermCreated'; data: { paymentTermId: string; code: string | null; name: string; disabled: boolean; lines: PaymentTermLine[]; at: string } }
  | { type: 'PaymentTermDeleted'; data: { paymentTermId: string; code: string | null; name: string; at: string } };

export const SETTINGS_EVENT_TYPES = [
  'BusinessAreaCreated', 'BusinessAreaDeleted', 'JobAreaCreated', 'PaymentMeanCreated', 'PaymentMeanDeleted',
  'PaymentMethodCreated', 'PaymentMethodUpdated', 'PaymentMethodDeleted', 'PaymentTermCreated', 'PaymentTermDeleted',
] as const satisfies readonly SettingsEvent['type'][];

export interface SettingsState {
  businessAreas: Map<string, string>; // id -> name
  jobAreas: Map<string, string>;
  paymentMeans: Map<string, Pick<PaymentMeanFields, 'description' | 'code' | 'accountingAccountId'>>;
  /** With what they refer to in the chart: deleting an account or a journal type a method uses is refused. */
  paymentMethods: Map<string, Pick<PaymentMethodFields, 'referenceName' | 'journalTypeId' | 'subAccountId'>>;
  paymentTerms: Map<string, { code: string | null; name: string; paymentMeanIds: string[] }>;
  /** Case-insensitive names in use, per kind (`businessArea:retail`). */
  taken: Set<string>;
}

export const initialSettingsState = (): SettingsState => ({
  businessAreas: new Map(), jobAreas: new Map(), paymentMeans: new Map(), paymentMethods: new Map(), paymentTerms: new Map(), taken: new Set(),
});

export type SettingsCommand =
  | { type: 'CreateBusinessArea'; businessAreaId: string; name: string; now: string }
  | { type: 'DeleteBusinessArea'; businessAreaId: string; usedByParties: boolean; now: string }
  | { type: 'CreateJobArea'; jobAreaId: string; name: string; now: string }
  | { type: 'CreatePaymentMean'; paymentMeanId: string; fields: PaymentMeanFields; now: string }
  | { type: 'DeletePaymentMean'; paymentMeanId: string; usedByParties: boolean; now: string }
  | { type: 'CreatePaymentMethod'; paymentMethodId: string; fields: PaymentMethodFields; now: string }
  | { type: 'UpdatePaymentMethod'; paymentMethodId: string; changes: PaymentMethodChanges; now: string }
  | { type: 'DeletePaymentMethod'; paymentMethodId: string; now: string }
  | { type: 'CreatePaymentTerm'; paymentTermId: string; code: string | null; name: string; disabled: boolean; lines: PaymentTermLineInput[]; now: string }
  | { type: 'DeletePaymentTerm'; paymentTermId: string; now: string };

export const SETTINGS_LIMITS = Object.freeze({ maxPerKind: 10_000 });

const key = (kind: string, name: string) => `${kind}:${name.trim().toLowerCase()}`;
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function checkNew(state: SettingsState, kind: string, name: string, id: string, ids: Map<string, unknown>, field: string): void {
  if (name.trim().length === 0) fail(Errors.invalidInput, { field, reason: Reasons.empty });
  if (state.taken.has(key(kind, name))) fail(SettingsErrors.settingAlreadyExists, { entity: kind, [field]: name });
  checkRoom(ids, id, field);
}

function checkRoom(ids: Map<string, unknown>, id: string, field: string): void {
  if (ids.has(id)) fail(Errors.documentIdAlreadyExists, { id });
  if (ids.size >= SETTINGS_LIMITS.maxPerKind) fail(Errors.invalidInput, { field, reason: Reasons.tooMany, limit: SETTINGS_LIMITS.maxPerKind });
}

/**
 * Payment means, terms and methods are unique by a name (case-insensitive) that settings stored before
 * issue 17 did not keep unique (their code was): a scan of at most maxPerKind finds a clash among the
 * new ones without asserting old data unique.
 */
function checkFree<V>(entity: string, values: Map<string, V>, name: (v: V) => string | null, wanted: string, except: string | null = null, param = 'name'): void {
  for (const [id, v] of values) {
    const other = name(v);
    if (id !== except && other !== null && same(other, wanted)) fail(SettingsErrors.settingAlreadyExists, { entity, [param]: wanted });
  }
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
      const description = command.fields.description.trim();
      const { code, accountingAccountId } = command.fields;
      checkFree('paymentMean', state.paymentMeans, (m) => m.description, description);
      if (code !== null) checkCode(code, CODE_LENGTH.paymentMean);
      if (code !== null) checkFree('paymentMean', state.paymentMeans, (m) => m.code, code, null, 'code');
      checkRoom(state.paymentMeans, command.paymentMeanId, 'description');
      if (accountingAccountId !== null) {
        const account = organisation.accounts.get(accountingAccountId) ?? fail(AccountingErrors.accountNotFound, { id: accountingAccountId, field: 'accountingAccountId' });
        if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, field: 'accountingAccountId' });
      }
      return [{ type: 'PaymentMeanCreated', data: { paymentMeanId: command.paymentMeanId, at, ...checkedBankDetails(command.fields), description } }];
    }
    case 'DeletePaymentMean': {
      const mean = state.paymentMeans.get(command.paymentMeanId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentMean', id: command.paymentMeanId });
      const inTerms = [...state.paymentTerms.values()].some((t) => t.paymentMeanIds.includes(command.paymentMeanId));
      if (command.usedByParties || inTerms) fail(SettingsErrors.settingInUse, { entity: 'paymentMean', name: mean.description });
      return [{ type: 'PaymentMeanDeleted', data: { paymentMeanId: command.paymentMeanId, code: mean.code, description: mean.description, at } }];
    }
    case 'CreatePaymentMethod': {
      const fields = decidePaymentMethodFields(organisation, command.fields);
      checkFree('paymentMethod', state.paymentMethods, (m) => m.referenceName, fields.referenceName);
      checkRoom(state.paymentMethods, command.paymentMethodId, 'referenceName');
      return [{ type: 'PaymentMethodCreated', data: { paymentMethodId: command.paymentMethodId, at, ...fields } }];
    }
    case 'UpdatePaymentMethod': {
      const method = state.paymentMethods.get(command.paymentMethodId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentMethod', id: command.paymentMethodId });
      const changes = decidePaymentMethodFields(organisation, command.changes);
      if (changes.referenceName !== undefined) checkFree('paymentMethod', state.paymentMethods, (m) => m.referenceName, changes.referenceName, command.paymentMethodId);
      const referenceName = changes.referenceName ?? method.referenceName;
      return [{ type: 'PaymentMethodUpdated', data: { paymentMethodId: command.paymentMethodId, referenceName, changes, at } }];
    }
    case 'DeletePaymentMethod': {
      // Nothing refers to a payment method yet; the settlement of open items will (and then guard this).
      const method = state.paymentMethods.get(command.paymentMethodId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentMethod', id: command.paymentMethodId });
      return [{ type: 'PaymentMethodDeleted', data: { paymentMethodId: command.paymentMethodId, referenceName: method.referenceName, at } }];
    }
    case 'CreatePaymentTerm': {
      const name = command.name.trim();
      checkFree('paymentTerm', state.paymentTerms, (t) => t.name, name);
      if (command.code !== null) checkCode(command.code, CODE_LENGTH.paymentTerm);
      if (command.code !== null) checkFree('paymentTerm', state.paymentTerms, (t) => t.code, command.code, null, 'code');
      checkRoom(state.paymentTerms, command.paymentTermId, 'name');
      if (command.lines.length === 0) fail(SettingsErrors.invalidPaymentTermLines, { field: 'lines', reason: Reasons.termNeedsLine });
      const lines = decidePaymentTermLines(command.lines, (id) => state.paymentMeans.has(id), 'lines');
      return [{ type: 'PaymentTermCreated', data: { paymentTermId: command.paymentTermId, code: command.code, name, disabled: command.disabled, lines, at } }];
    }
    case 'DeletePaymentTerm': {
      const term = state.paymentTerms.get(command.paymentTermId) ?? fail(SettingsErrors.settingNotFound, { entity: 'paymentTerm', id: command.paymentTermId });
      return [{ type: 'PaymentTermDeleted', data: { paymentTermId: command.paymentTermId, code: term.code, name: term.name, at } }];
    }
  }
}

const chartReferences = (m: Pick<PaymentMethodFields, 'referenceName' | 'journalTypeId' | 'subAccountId'>) =>
  ({ referenceName: m.referenceName, journalTypeId: m.journalTypeId, subAccountId: m.subAccountId });

/**
 * The payment method that posts through this journal type or sub-account, or the payment mean whose
 * accounting account it is, if any (a deletion guard asks).
 */
export function settingUsingChart(state: SettingsState, chartId: string): { entity: string; name: string } | undefined {
  for (const m of state.paymentMethods.values()) if (m.journalTypeId === chartId || m.subAccountId === chartId) return { entity: 'paymentMethod', name: m.referenceName };
  for (const m of state.paymentMeans.values()) if (m.accountingAccountId === chartId) return { entity: 'paymentMean', name: m.code ?? m.description };
  return undefined;
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped.
 */
export function evolveSettings(state: SettingsState, event: SettingsEvent): SettingsState {
  const type = event.type;
  /** Payment means, methods and terms: unique by id only here (see checkFree). */
  const added = <V>(kind: string, ids: Map<string, V>, id: string, value: V) => {
    assert(!ids.has(id), `${type} of ${kind} ${id}, which exists already`);
    ids.set(id, value);
    return state;
  };
  const removed = (kind: string, ids: Map<string, unknown>, id: string) => {
    assert(ids.has(id), `${type} of ${kind} ${id}, which does not exist`);
    ids.delete(id);
    return state;
  };
  /** Records a new setting of `kind` whose id and (case-insensitive) name or code must both be free. */
  const created = <V>(kind: string, ids: Map<string, V>, id: string, name: string, value: V) => {
    assert(!ids.has(id), `${type} of ${kind} ${id}, which exists already`);
    assert(!state.taken.has(key(kind, name)), `${type} of ${kind} ${id} named ${name}, which another ${kind} has`);
    ids.set(id, value);
    state.taken.add(key(kind, name));
    return state;
  };
  const deleted = (kind: string, ids: Map<string, unknown>, id: string, name: string) => {
    removed(kind, ids, id);
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
      return added('paymentMean', state.paymentMeans, event.data.paymentMeanId, { description: event.data.description, code: event.data.code, accountingAccountId: event.data.accountingAccountId });
    case 'PaymentMeanDeleted':
      return removed('paymentMean', state.paymentMeans, event.data.paymentMeanId);
    case 'PaymentMethodCreated':
      return added('paymentMethod', state.paymentMethods, event.data.paymentMethodId, chartReferences(event.data));
    case 'PaymentMethodUpdated': {
      const method = state.paymentMethods.get(event.data.paymentMethodId);
      assert(method !== undefined, `${type} of paymentMethod ${event.data.paymentMethodId}, which does not exist`);
      state.paymentMethods.set(event.data.paymentMethodId, chartReferences({ ...method, ...event.data.changes, referenceName: event.data.referenceName }));
      return state;
    }
    case 'PaymentMethodDeleted':
      return removed('paymentMethod', state.paymentMethods, event.data.paymentMethodId);
    case 'PaymentTermCreated': {
      const paymentMeanIds = event.data.lines.map((l) => l.paymentMeanId).filter((id): id is string => id !== null);
      return added('paymentTerm', state.paymentTerms, event.data.paymentTermId, { code: event.data.code, name: event.data.name, paymentMeanIds });
    }
    case 'PaymentTermDeleted':
      return removed('paymentTerm', state.paymentTerms, event.data.paymentTermId);
    default:
      return unknownEvent('SharedSettings', event);
  }
}
