/** A party's validated input as the decider takes it: clear and personal fields apart, every nested item with its id. */
import type { ContactCollection, PartyCollection } from '../../domain/parties/enums.ts';
import {
  ADDRESS_PERSONAL_FIELDS, PERSONAL_FIELDS,
  type AddressInput, type ClearFields, type ContactEmail, type ContactInput, type ContactPhone, type ContactSocialMedia, type PartyKind, type PersonalFields,
} from '../../domain/parties/fields.ts';
import type { PartyInput } from '../../domain/parties/party-body.ts';
import { mergeItems, required, sentFields, type ItemPatch, type ItemRules } from '../../domain/parties/sub-collections.ts';
import { paymentTermLines as paymentTermLinesOf } from '../settings/inputs.ts';

type Loose = Record<string, any>;
/** `id(what, i)` names the i-th nested item of a kind ('address', 'contact-0-email'...): the handler's newId. */
type NewId = (what: string, i: number) => string;

/** The party's nested lists as they stand, personal parts in clear (empty for a new party). */
export interface CurrentItems {
  addresses: AddressInput[];
  contacts: ContactInput[];
}
export const NO_ITEMS: CurrentItems = { addresses: [], contacts: [] };

const ADDRESS_FIELDS = ['countryIsoCodeAlpha2', 'isMainAddress', 'isDeliveryAddress', 'isDefaultDeliveryAddress', ...ADDRESS_PERSONAL_FIELDS] as const;
const CONTACT_FIELDS = ['jobAreaId', 'isDefault', 'isDefaultCustomer', 'isDefaultSupplier', 'courtesy', 'name', 'surname', 'jobName'] as const;
const EMAIL_FIELDS = ['emailAddress', 'usage', 'isDefault'] as const;
const PHONE_FIELDS = ['number', 'type', 'isDefault'] as const;
const SOCIAL_MEDIA_FIELDS = ['name', 'link'] as const;

/** An item's rules where a new item is its defaults overwritten by the fields sent. */
function rules<T>(
  kind: PartyKind, field: string, idOf: (t: T) => string, names: readonly string[], fresh: (p: ItemPatch, i: number) => T, exclusive: readonly string[] = [],
): ItemRules<T> {
  return { kind, field, idOf, create: fresh, modify: (item, patch) => ({ ...item, ...sentFields(patch, names) }), exclusive };
}
/** The flags one item of a list holds at most (party-body.ts checks them). */
const ONE_DEFAULT = ['isDefault'] as const;
const ADDRESS_DEFAULTS = ['isMainAddress', 'isDefaultDeliveryAddress'] as const;
const CONTACT_DEFAULTS = ['isDefault', 'isDefaultCustomer', 'isDefaultSupplier'] as const;

function contactParts(kind: PartyKind, at: string, ci: number, id: NewId, current: ContactInput | null, patch: ItemPatch) {
  const replaced = new Set<ContactCollection>(current ? (patch.replaceAll as ContactCollection[] | null) ?? [] : ['EMAILS', 'PHONES', 'SOCIAL_MEDIAS']);
  const part = <T>(list: 'emails' | 'phones' | 'socialMedias', which: ContactCollection, r: ItemRules<T>, now: T[]) =>
    (patch[list] == null && !replaced.has(which) ? now : mergeItems(now, (patch[list] as ItemPatch[] | null) ?? [], replaced.has(which), r));
  return {
    emails: part<ContactEmail>('emails', 'EMAILS', rules(kind, `${at}.emails`, (e) => e.emailId, EMAIL_FIELDS, (e, j) => ({
      emailId: id(`contact-${ci}-email`, j), emailAddress: required(e.emailAddress, `${at}.emails[${j}].emailAddress`), usage: (e.usage ?? null) as ContactEmail['usage'], isDefault: e.isDefault === true,
    }), ONE_DEFAULT), current?.emails ?? []),
    phones: part<ContactPhone>('phones', 'PHONES', rules(kind, `${at}.phones`, (p) => p.phoneId, PHONE_FIELDS, (p, j) => ({
      phoneId: id(`contact-${ci}-phone`, j), number: required(p.number, `${at}.phones[${j}].number`), type: (p.type ?? null) as ContactPhone['type'], isDefault: p.isDefault === true,
    }), ONE_DEFAULT), current?.phones ?? []),
    socialMedias: part<ContactSocialMedia>('socialMedias', 'SOCIAL_MEDIAS', rules(kind, `${at}.socialMedias`, (s) => s.socialMediaId, SOCIAL_MEDIA_FIELDS, (s, j) => ({
      socialMediaId: id(`contact-${ci}-social`, j), name: (s.name ?? null) as string | null, link: required(s.link, `${at}.socialMedias[${j}].link`),
    })), current?.socialMedias ?? []),
  };
}

function addressRules(kind: PartyKind, id: NewId): ItemRules<AddressInput> {
  return rules(kind, 'addresses', (a) => a.addressId, ADDRESS_FIELDS, (a, i) => ({
    addressId: id('address', i), countryIsoCodeAlpha2: (a.countryIsoCodeAlpha2 ?? null) as string | null,
    isMainAddress: a.isMainAddress === true, isDeliveryAddress: a.isDeliveryAddress === true, isDefaultDeliveryAddress: a.isDefaultDeliveryAddress === true,
    ...Object.fromEntries(ADDRESS_PERSONAL_FIELDS.map((f) => [f, a[f] ?? null])),
  }), ADDRESS_DEFAULTS);
}

function contactRules(kind: PartyKind, id: NewId): ItemRules<ContactInput> {
  const base = rules<ContactInput>(kind, 'contacts', (c) => c.contactId, CONTACT_FIELDS, (c, i) => ({
    contactId: id('contact', i), jobAreaId: (c.jobAreaId ?? null) as string | null,
    isDefault: c.isDefault === true, isDefaultCustomer: c.isDefaultCustomer === true, isDefaultSupplier: c.isDefaultSupplier === true,
    courtesy: (c.courtesy ?? null) as ContactInput['courtesy'], name: (c.name ?? null) as string | null, surname: (c.surname ?? null) as string | null, jobName: (c.jobName ?? null) as string | null,
    ...contactParts(kind, `contacts[${i}]`, i, id, null, c),
  }), CONTACT_DEFAULTS);
  return { ...base, modify: (item, patch, i) => ({ ...base.modify(item, patch, i), ...contactParts(kind, `contacts[${i}]`, i, id, item, patch) }) };
}

/**
 * The input of a create (`current` NO_ITEMS: every item new) or an update (the lists as they stand,
 * patched by the items sent; a list not sent stays as it is, null in the input).
 */
export function toPartyInput(kind: PartyKind, values: Loose, id: NewId, current: CurrentItems = NO_ITEMS): PartyInput {
  const { addresses, contacts, paymentTermLines, replaceAll, requestedAction: _action, ...scalars } = values;
  const personalNames: readonly string[] = PERSONAL_FIELDS[kind];
  const fields: ClearFields = {};
  const personal: PersonalFields = {};
  for (const [name, value] of Object.entries(scalars)) {
    if (value === undefined) continue;
    if (personalNames.includes(name)) personal[name] = value ?? null;
    else fields[name] = value ?? null;
  }
  const replaced = new Set<PartyCollection>(replaceAll ?? []);
  const list = <T>(sent: ItemPatch[] | null | undefined, which: PartyCollection, now: T[], r: ItemRules<T>): T[] | null =>
    (sent == null && !replaced.has(which) ? null : mergeItems(now, sent ?? [], replaced.has(which), r));
  return {
    fields,
    personal,
    addresses: list(addresses, 'ADDRESSES', current.addresses, addressRules(kind, id)),
    contacts: list(contacts, 'CONTACTS', current.contacts, contactRules(kind, id)),
    paymentTermLines: paymentTermLines ? paymentTermLinesOf(paymentTermLines, id) : null,
  };
}
