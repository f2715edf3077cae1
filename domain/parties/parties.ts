/**
 * The Parties aggregate: an organisation's customers, suppliers and employees. One stream per
 * organisation, `Parties-<id>`: codes are unique across all three kinds (entries name their third party
 * by code, so one code must mean one party) and generated codes come from one sequence per kind.
 *
 * Events carry personal fields apart (`personal`): the decider returns them in clear and the command
 * side seals them with the data subject's key before appending (crypto-shredding), so nothing here ever
 * depends on personal data: evolve reads only clear fields. Pure decider.
 */
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Errors, Reasons, assert, fail, unknownEvent } from '../errors.ts';
import { PartyErrors } from './errors.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import {
  ACCOUNT_FIELDS, CODE_DIGITS, CODE_FORMAT, DEFAULTS, EVENT_PREFIX, PartyKind, type AccountField,
  type AddressClear, type ClearFields, type ContactClear, type PartyPersonal,
} from './fields.ts';
import { ERASED_STATUS } from './enums.ts';
import { decidePartyBody, type BodyContext, type PartyInput } from './party-body.ts';
import { standingChanges, statusAfterDisabled } from './standing.ts';
import type { PaymentTermLine } from '../settings/payment-terms.ts';
import type { SettingsState } from '../settings/settings.ts';
import { customerTermsAfter, type CustomerTerms } from './customer-terms.ts';

type Prefix = (typeof EVENT_PREFIX)[PartyKind];

export interface PartyCreatedData<P> {
  partyId: string;
  kind: PartyKind;
  code: string;
  fields: ClearFields;
  addresses: AddressClear[];
  contacts: ContactClear[];
  paymentTermLines: PaymentTermLine[];
  personal: P;
  at: string;
}
export interface PartyUpdatedData<P> {
  partyId: string;
  kind: PartyKind;
  code: string;
  changes: ClearFields;
  /** null: unchanged; a list replaces the party's whole list. */
  addresses: AddressClear[] | null;
  contacts: ContactClear[] | null;
  paymentTermLines: PaymentTermLine[] | null;
  /** null when the update changes nothing personal. */
  personal: P | null;
  at: string;
}
export interface PartyRefData {
  partyId: string;
  kind: PartyKind;
  code: string;
  at: string;
}

/** `P` is the personal part: PartyPersonal as decided, a sealed envelope as stored. */
export type PartyEvent<P = unknown> =
  | { type: `${Prefix}Created`; data: PartyCreatedData<P> }
  | { type: `${Prefix}Updated`; data: PartyUpdatedData<P> }
  | { type: `${Prefix}Deleted`; data: PartyRefData }
  | { type: `${Prefix}GdprApplied`; data: PartyRefData };

export const PARTY_ACTIONS = ['Created', 'Updated', 'Deleted', 'GdprApplied'] as const;
export type PartyAction = (typeof PARTY_ACTIONS)[number];
export const PARTY_EVENT_TYPES: readonly string[] = PartyKind.flatMap((k) => PARTY_ACTIONS.map((a) => `${EVENT_PREFIX[k]}${a}`));

export function partyAction(type: string): PartyAction {
  const action = PARTY_ACTIONS.find((a) => type.endsWith(a));
  if (!action) throw new Error(`not a party event: ${type}`);
  return action;
}

export interface PartyState {
  id: string;
  kind: PartyKind;
  code: string;
  country: string | null;
  /** Its standing (status and disabled are one fact: standing.ts). */
  status: string | null;
  disabled: boolean;
  gdprApplied: boolean;
  /** Shared settings this party refers to (business area, job areas, payment means). */
  refs: PartyRefs;
  /** Its nested lists as they stand: what an update's items patch (sub-collections.ts). */
  items: PartyItems;
  /** What a sales document takes from it (customer-terms.ts). */
  terms?: CustomerTerms;
}

/**
 * A party's addresses and contacts: the clear parts, and the personal part (sealed, as stored) of the
 * last event that set each list, which holds the personal part of that whole list (events carry whole
 * lists). evolve never opens them; the command side does, with the party's key, to patch the lists.
 */
export interface PartyItems {
  addresses: AddressClear[];
  contacts: ContactClear[];
  addressesPersonal: unknown;
  contactsPersonal: unknown;
}

export interface PartiesState {
  parties: Map<string, PartyState>;
  idByCode: Map<string, string>;
  /** Highest generated number seen per kind (C00042 -> 42). */
  lastNumber: Record<PartyKind, number>;
  /** How many parties refer to each shared setting or chart account id (deletion guards of the settings and the chart). */
  usage: Map<string, number>;
  /** Deleted parties: their events still hold sealed personal data, so they can still be erased. */
  deleted: Map<string, PartyState>;
}

export const initialPartiesState = (): PartiesState => ({
  parties: new Map(), idByCode: new Map(), lastNumber: { customer: 0, supplier: 0, employee: 0 }, usage: new Map(), deleted: new Map(),
});

export interface PartyFacts {
  organisation: OrganisationState;
  settings: SettingsState;
  /** Whether live accounting entries name this code or id as their third party. */
  usedByEntries: (codeOrId: string) => boolean;
  /** Whether the organisation has this sales tariff or discount group (a customer may name one); unset: not checked. */
  priceListExists?: BodyContext['priceListExists'];
}

export type PartyCommand =
  | { type: 'CreateParty'; kind: PartyKind; partyId: string; code: string | null; input: PartyInput; now: string }
  /** `code`: the code the client sent back with the update (it must be the party's), or null. */
  | { type: 'UpdateParty'; kind: PartyKind; partyId: string; code?: string | null; input: PartyInput; now: string }
  | { type: 'DeleteParty'; kind: PartyKind; partyId: string; now: string }
  | { type: 'ApplyGdpr'; kind: PartyKind; partyId: string; now: string };

export const PARTIES_LIMITS = Object.freeze({ maxParties: 200_000 });

const eventType = <A extends PartyAction>(kind: PartyKind, action: A) => `${EVENT_PREFIX[kind]}${action}` as `${Prefix}${A}`;

export function requireParty(state: PartiesState, kind: PartyKind, partyId: string, orDeleted = false): PartyState {
  const party = state.parties.get(partyId) ?? (orDeleted ? state.deleted.get(partyId) : undefined);
  // Another kind's id is not found either: deleteCustomer never deletes a supplier.
  if (!party || party.kind !== kind) return fail(PartyErrors.partyNotFound, { kind, id: partyId });
  return party;
}

/** The next free generated code of a kind: the sequence skips codes users chose themselves. */
function nextCode(state: PartiesState, kind: PartyKind): string {
  for (let n = state.lastNumber[kind] + 1, tries = 0; tries <= PARTIES_LIMITS.maxParties; n++, tries++) {
    const code = `${CODE_FORMAT[kind]}${String(n).padStart(CODE_DIGITS, '0')}`;
    if (!state.idByCode.has(code)) return code;
  }
  return fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: PARTIES_LIMITS.maxParties });
}

function hasPersonalChanges(input: PartyInput): boolean {
  return Object.keys(input.personal).length > 0 || input.addresses !== null || input.contacts !== null;
}

export function decideParties(command: PartyCommand, state: PartiesState, facts: PartyFacts): PartyEvent<PartyPersonal>[] {
  const at = command.now;
  const { organisation, settings } = facts;
  if (!organisation.id || !organisation.country) fail(Errors.organisationNotFound);
  const kind = command.kind;
  switch (command.type) {
    case 'CreateParty': {
      if (state.parties.has(command.partyId) || state.deleted.has(command.partyId)) fail(Errors.documentIdAlreadyExists, { id: command.partyId });
      if (state.parties.size >= PARTIES_LIMITS.maxParties) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: PARTIES_LIMITS.maxParties });
      if (command.code !== null) checkCode(command.code, CODE_LENGTH.party);
      if (command.code !== null && state.idByCode.has(command.code)) fail(PartyErrors.partyCodeAlreadyExists, { code: command.code });
      const code = command.code ?? nextCode(state, kind);
      const body = decidePartyBody({ kind, organisation, settings, currentCountry: null, priceListExists: facts.priceListExists }, command.input);
      const defaults = DEFAULTS[kind];
      const standing = standingChanges(body.fields, { status: defaults.status as string, disabled: false }, at);
      const fields = { ...defaults, ...body.fields, sourceType: 'PUBLIC_API', ...standing };
      return [{
        type: eventType(kind, 'Created'),
        data: { partyId: command.partyId, kind, code, fields, addresses: body.addresses ?? [], contacts: body.contacts ?? [], paymentTermLines: body.paymentTermLines ?? [], personal: body.personal, at },
      }];
    }
    case 'UpdateParty': {
      const party = requireParty(state, kind, command.partyId);
      // After erasure the party may still be disabled or re-filed, but it never gets personal data back.
      if (party.gdprApplied && hasPersonalChanges(command.input)) fail(PartyErrors.partyGdprApplied, { kind, code: party.code });
      // GDPR_APPLIED stays the status of an erased party: the client sets no other.
      if (party.gdprApplied && command.input.fields.status !== undefined) fail(PartyErrors.partyGdprApplied, { kind, code: party.code });
      if (command.code != null && command.code !== party.code) fail(PartyErrors.partyCodeUnchangeable, { kind, code: party.code, value: command.code });
      const body = decidePartyBody({ kind, organisation, settings, currentCountry: party.country, priceListExists: facts.priceListExists }, command.input);
      const changes = { ...body.fields, ...standingChanges(body.fields, party, at) };
      return [{
        type: eventType(kind, 'Updated'),
        data: {
          partyId: party.id, kind, code: party.code, changes, addresses: body.addresses, contacts: body.contacts, paymentTermLines: body.paymentTermLines,
          personal: hasPersonalChanges(command.input) ? body.personal : null, at,
        },
      }];
    }
    case 'DeleteParty': {
      const party = requireParty(state, kind, command.partyId);
      // The books keep naming the party: it stays, disabled, instead of leaving entries pointing nowhere.
      if (facts.usedByEntries(party.code) || facts.usedByEntries(party.id)) fail(PartyErrors.partyInUse, { kind, code: party.code });
      return [{ type: eventType(kind, 'Deleted'), data: { partyId: party.id, kind, code: party.code, at } }];
    }
    case 'ApplyGdpr': {
      // A deleted party too: deleting is not erasing, its events still hold its sealed personal data.
      const party = requireParty(state, kind, command.partyId, true);
      if (party.gdprApplied) fail(PartyErrors.partyGdprApplied, { kind, code: party.code });
      return [{ type: eventType(kind, 'GdprApplied'), data: { partyId: party.id, kind, code: party.code, at } }];
    }
  }
}

/**
 * Shared settings and chart accounts a party refers to, by where they come from (an update may replace one
 * part only): the settings' and the chart's deletion guards read them.
 */
export interface PartyRefs {
  businessAreaId: string | null;
  /** A customer's sales tariff and discount group (the Catalog's deletion guard reads them). */
  salesTariffId: string | null;
  salesDiscountGroupId: string | null;
  jobAreaIds: string[];
  paymentMeanIds: string[];
  accountIds: Record<AccountField, string | null>;
}

const flat = (r: PartyRefs) => [
  ...[r.businessAreaId, r.salesTariffId, r.salesDiscountGroupId].filter((id): id is string => id !== null), ...r.jobAreaIds, ...r.paymentMeanIds,
  ...Object.values(r.accountIds).filter((id): id is string => id !== null),
];

/** The value of a nullable id field after `changes`: changed when the changes name it, else as it was. */
function idAfter(changes: ClearFields, name: string, previous: string | null | undefined): string | null {
  const value = changes[name] !== undefined ? changes[name] : previous;
  return typeof value === 'string' ? value : null;
}

function refsAfter(previous: PartyRefs | null, changes: ClearFields, contacts: ContactClear[] | null, lines: PaymentTermLine[] | null): PartyRefs {
  return {
    businessAreaId: idAfter(changes, 'businessAreaId', previous?.businessAreaId),
    salesTariffId: idAfter(changes, 'salesTariffId', previous?.salesTariffId),
    salesDiscountGroupId: idAfter(changes, 'salesDiscountGroupId', previous?.salesDiscountGroupId),
    accountIds: Object.fromEntries(ACCOUNT_FIELDS.map((f) => [f, idAfter(changes, f, previous?.accountIds[f])])) as PartyRefs['accountIds'],
    jobAreaIds: contacts ? contacts.map((c) => c.jobAreaId).filter((id): id is string => id !== null) : previous?.jobAreaIds ?? [],
    paymentMeanIds: lines ? lines.map((l) => l.paymentMeanId).filter((id): id is string => id !== null) : previous?.paymentMeanIds ?? [],
  };
}

function count(usage: Map<string, number>, refs: PartyRefs, delta: number): void {
  for (const ref of flat(refs)) {
    const next = (usage.get(ref) ?? 0) + delta;
    if (next <= 0) usage.delete(ref);
    else usage.set(ref, next);
  }
}

/**
 * Folds one stored event. An event the state cannot have produced (its decider refuses the same
 * command) means the store or our code is broken: it fails loudly instead of being skipped.
 */
export function evolveParties(state: PartiesState, event: PartyEvent): PartiesState {
  const type = event.type;
  if (!PARTY_EVENT_TYPES.includes(type)) return unknownEvent('Parties', event);
  switch (partyAction(type)) {
    case 'Created': {
      const d = event.data as PartyCreatedData<unknown>;
      assert(type === eventType(d.kind, 'Created'), `${type} of party ${d.partyId} of kind ${d.kind}`);
      assert(!state.parties.has(d.partyId) && !state.deleted.has(d.partyId), `${type} of party ${d.partyId}, which exists already`);
      assert(!state.idByCode.has(d.code), `${type} of party ${d.partyId} with code ${d.code}, which another party has`);
      const refs = refsAfter(null, d.fields, d.contacts, d.paymentTermLines);
      const country = typeof d.fields.countryAcronym === 'string' ? d.fields.countryAcronym : null;
      const items = { addresses: d.addresses, contacts: d.contacts, addressesPersonal: d.personal, contactsPersonal: d.personal };
      const status = typeof d.fields.status === 'string' ? d.fields.status : null;
      state.parties.set(d.partyId, { id: d.partyId, kind: d.kind, code: d.code, country, status, disabled: d.fields.disabled === true, gdprApplied: false, refs, items, terms: customerTermsAfter(undefined, d.fields, d.paymentTermLines) });
      state.idByCode.set(d.code, d.partyId);
      count(state.usage, refs, 1);
      const generated = new RegExp(`^${CODE_FORMAT[d.kind]}(\\d{${CODE_DIGITS},})$`).exec(d.code);
      if (generated) state.lastNumber[d.kind] = Math.max(state.lastNumber[d.kind], Number(generated[1]));
      return state;
    }
    case 'Updated': {
      const d = event.data as PartyUpdatedData<unknown>;
      const party = liveParty(state, type, d);
      if (d.changes.countryAcronym !== undefined) party.country = typeof d.changes.countryAcronym === 'string' ? d.changes.countryAcronym : null;
      if (d.changes.status !== undefined) party.status = d.changes.status as string | null;
      // (A version 1 event may disable or enable alone: the status follows, as standing.ts says.)
      else if (typeof d.changes.disabled === 'boolean') party.status = statusAfterDisabled(party.status, d.changes.disabled);
      if (typeof d.changes.disabled === 'boolean') party.disabled = d.changes.disabled;
      party.terms = customerTermsAfter(party.terms, d.changes, d.paymentTermLines);
      // References are recounted from what the update leaves: changed parts from the event, the rest as they were.
      count(state.usage, party.refs, -1);
      party.refs = refsAfter(party.refs, d.changes, d.contacts, d.paymentTermLines);
      count(state.usage, party.refs, 1);
      if (d.addresses) party.items = { ...party.items, addresses: d.addresses, addressesPersonal: d.personal };
      if (d.contacts) party.items = { ...party.items, contacts: d.contacts, contactsPersonal: d.personal };
      return state;
    }
    case 'Deleted': {
      const d = event.data as PartyRefData;
      const party = liveParty(state, type, d);
      count(state.usage, party.refs, -1);
      state.deleted.set(d.partyId, party);
      state.parties.delete(d.partyId);
      state.idByCode.delete(d.code);
      return state;
    }
    case 'GdprApplied': {
      const d = event.data as PartyRefData;
      // A deleted party too (ApplyGdpr erases deleted parties' sealed data).
      const party = state.parties.get(d.partyId) ?? state.deleted.get(d.partyId);
      assert(party && type === eventType(party.kind, 'GdprApplied'), `${type} of party ${d.partyId}, which does not exist`);
      assert(!party.gdprApplied, `${type} of party ${d.partyId}, which is erased already`);
      party.gdprApplied = true;
      party.status = ERASED_STATUS;
      return state;
    }
  }
}

/** A live party naming the chart account `accountId` (the chart's deletion guard), if any. */
export function partyUsingAccount(state: PartiesState, accountId: string): { entity: PartyKind; name: string } | undefined {
  if (!state.usage.has(accountId)) return undefined;
  for (const party of state.parties.values()) {
    if (Object.values(party.refs.accountIds).includes(accountId)) return { entity: party.kind, name: party.code };
  }
  return undefined;
}

/** The live party an update or deletion names, of the kind its event type says, with the code it says. */
function liveParty(state: PartiesState, type: string, d: { partyId: string; code: string }): PartyState {
  const party = state.parties.get(d.partyId);
  assert(party && type.startsWith(EVENT_PREFIX[party.kind]) && party.code === d.code, `${type} of party ${d.partyId} with code ${d.code}, which does not exist`);
  return party;
}
