/**
 * Validates and normalises what a create or update command says about a party (its clear fields,
 * personal fields, addresses, contacts and payment term lines) against the organisation's chart and
 * shared settings, and splits addresses and contacts into their clear and personal parts. Pure.
 */
import { Errors, Reasons, fail } from '../errors.ts';
import { ERASED_STATUS } from './enums.ts';
import { PartyErrors } from './errors.ts';
import { AccountingErrors } from '../accounting/errors.ts';
import { SettingsErrors } from '../settings/errors.ts';
import { CatalogErrors } from '../catalog/errors.ts';
import { Decimal } from '../money.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import { documentTypeId, documentTypesFor } from '../settings/document-types.ts';
import {
  ACCOUNT_FIELDS, ADDRESS_PERSONAL_FIELDS, PERSONAL_FIELDS,
  type AddressClear, type AddressInput, type AddressPersonal, type ClearFields, type ContactClear, type ContactInput, type ContactPersonal,
  type PartyKind, type PartyPersonal, type PersonalFields,
} from './fields.ts';
import { decidePaymentTermLines, type PaymentTermLine, type PaymentTermLineInput } from '../settings/payment-terms.ts';
import type { SettingsState } from '../settings/settings.ts';
import { checkAtMostOne, checkCountry, checkEmail, checkPhone, checkUrl, checkVatNumber } from './validation.ts';

export const BODY_LIMITS = Object.freeze({ maxAddresses: 20, maxContacts: 50, maxPerContact: 10 });

export interface PartyInput {
  fields: ClearFields;
  personal: PersonalFields;
  /** null: unchanged (updates); a list replaces the party's whole list. */
  addresses: AddressInput[] | null;
  contacts: ContactInput[] | null;
  paymentTermLines: PaymentTermLineInput[] | null;
}

export interface PartyBody {
  fields: ClearFields;
  addresses: AddressClear[] | null;
  contacts: ContactClear[] | null;
  paymentTermLines: PaymentTermLine[] | null;
  personal: PartyPersonal;
}

export interface BodyContext {
  kind: PartyKind;
  organisation: OrganisationState;
  settings: SettingsState;
  /** The party's country as it stands (updates), for VAT numbers and national phone numbers. */
  currentCountry: string | null;
  /** Whether the organisation has this sales tariff or discount group (Catalog); unset: not checked. */
  priceListExists?: (kind: 'salesTariff' | 'salesDiscount', id: string) => boolean;
}

/** A customer's tariff and discount group are the organisation's (the Catalog's price lists). */
const PRICE_LIST_FIELDS = [['salesTariffId', 'salesTariff'], ['salesDiscountGroupId', 'salesDiscount']] as const;

function checkFields(c: BodyContext, fields: ClearFields): ClearFields {
  const out: ClearFields = { ...fields };
  for (const name of Object.keys(fields)) {
    if ((PERSONAL_FIELDS[c.kind] as readonly string[]).includes(name)) throw new Error(`invariant violated: personal field ${name} among clear fields`);
  }
  if (fields.status === ERASED_STATUS) fail(PartyErrors.statusByErasure, { field: 'status' });
  for (const name of ACCOUNT_FIELDS) {
    const id = fields[name];
    if (typeof id !== 'string') continue;
    const account = c.organisation.accounts.get(id) ?? fail(AccountingErrors.accountNotFound, { id, field: name });
    if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, field: name });
  }
  if (typeof fields.businessAreaId === 'string' && !c.settings.businessAreas.has(fields.businessAreaId)) {
    fail(SettingsErrors.settingNotFound, { entity: 'businessArea', field: 'businessAreaId', id: fields.businessAreaId });
  }
  for (const [field, kind] of PRICE_LIST_FIELDS) {
    const id = fields[field];
    if (typeof id === 'string' && c.priceListExists && !c.priceListExists(kind, id)) fail(CatalogErrors.priceListNotFound, { kind, field, id });
  }
  if (typeof fields.documentTypeId === 'string') {
    const known = documentTypesFor(c.organisation.country!).some((d) => documentTypeId(c.organisation.id!, d.code) === fields.documentTypeId);
    if (!known) fail(SettingsErrors.settingNotFound, { entity: 'documentType', field: 'documentTypeId', id: fields.documentTypeId });
  }
  if (typeof fields.countryAcronym === 'string') {
    const country = checkCountry(fields.countryAcronym, 'countryAcronym');
    out.countryAcronym = country.isoCodeAlpha2;
    out.viesCode = country.viesCode;
  } else if (fields.countryAcronym === null) out.viesCode = null;
  if (fields.discount !== undefined && fields.discount !== null) {
    const text = String(fields.discount).trim();
    const value = /^\d{1,3}(\.\d{1,20})?$/.test(text) ? new Decimal(text) : null;
    if (!value || value.gt(100) || value.decimalPlaces() > 2) fail(Errors.invalidInput, { field: 'discount', value: String(fields.discount), reason: Reasons.percentage });
    out.discount = value.toFixed(2);
  }
  return out;
}

function checkPersonal(c: BodyContext, personal: PersonalFields, country: string): PersonalFields {
  const out: PersonalFields = {};
  for (const [name, value] of Object.entries(personal)) out[name] = typeof value === 'string' ? value.trim() || null : null;
  if (out.vatNumber) out.vatNumber = checkVatNumber(out.vatNumber, country, 'vatNumber');
  return out;
}

function checkAddresses(addresses: AddressInput[]): { clear: AddressClear[]; personal: Record<string, AddressPersonal> } {
  if (addresses.length > BODY_LIMITS.maxAddresses) fail(Errors.invalidInput, { field: 'addresses', reason: Reasons.tooManyItems, maximum: BODY_LIMITS.maxAddresses });
  checkAtMostOne(addresses, (a) => a.isMainAddress, 'addresses.isMainAddress');
  checkAtMostOne(addresses, (a) => a.isDefaultDeliveryAddress, 'addresses.isDefaultDeliveryAddress');
  const personal: Record<string, AddressPersonal> = {};
  const clear = addresses.map((a, i): AddressClear => {
    if (a.isDefaultDeliveryAddress && !a.isDeliveryAddress) fail(Errors.invalidInput, { field: `addresses[${i}].isDefaultDeliveryAddress`, reason: Reasons.defaultDeliveryAddress });
    personal[a.addressId] = Object.fromEntries(ADDRESS_PERSONAL_FIELDS.map((f) => [f, a[f]?.trim() || null])) as AddressPersonal;
    return {
      addressId: a.addressId,
      countryIsoCodeAlpha2: a.countryIsoCodeAlpha2 ? checkCountry(a.countryIsoCodeAlpha2, `addresses[${i}].countryIsoCodeAlpha2`).isoCodeAlpha2 : null,
      isMainAddress: a.isMainAddress, isDeliveryAddress: a.isDeliveryAddress, isDefaultDeliveryAddress: a.isDefaultDeliveryAddress,
    };
  });
  return { clear, personal };
}

function checkContacts(c: BodyContext, contacts: ContactInput[], country: string): { clear: ContactClear[]; personal: Record<string, ContactPersonal> } {
  const max = BODY_LIMITS.maxPerContact;
  if (contacts.length > BODY_LIMITS.maxContacts) fail(Errors.invalidInput, { field: 'contacts', reason: Reasons.tooManyItems, maximum: BODY_LIMITS.maxContacts });
  checkAtMostOne(contacts, (x) => x.isDefault, 'contacts.isDefault');
  checkAtMostOne(contacts, (x) => x.isDefaultCustomer, 'contacts.isDefaultCustomer');
  checkAtMostOne(contacts, (x) => x.isDefaultSupplier, 'contacts.isDefaultSupplier');
  const personal: Record<string, ContactPersonal> = {};
  const clear = contacts.map((x, i): ContactClear => {
    const at = `contacts[${i}]`;
    if (x.jobAreaId && !c.settings.jobAreas.has(x.jobAreaId)) fail(SettingsErrors.settingNotFound, { entity: 'jobArea', field: `${at}.jobAreaId`, id: x.jobAreaId });
    const emails = x.emails ?? [];
    const phones = x.phones ?? [];
    const socialMedias = x.socialMedias ?? [];
    if (emails.length > max || phones.length > max || socialMedias.length > max) fail(Errors.invalidInput, { field: at, reason: Reasons.tooManyItems, maximum: max });
    checkAtMostOne(emails, (e) => e.isDefault, `${at}.emails.isDefault`);
    checkAtMostOne(phones, (p) => p.isDefault, `${at}.phones.isDefault`);
    personal[x.contactId] = {
      courtesy: x.courtesy ?? null, name: x.name?.trim() || null, surname: x.surname?.trim() || null, jobName: x.jobName?.trim() || null,
      emails: emails.map((e, j) => ({ ...e, emailAddress: checkEmail(e.emailAddress, `${at}.emails[${j}].emailAddress`) })),
      phones: phones.map((p, j) => ({ ...p, number: checkPhone(p.number, country, `${at}.phones[${j}].number`) })),
      socialMedias: socialMedias.map((s, j) => ({ ...s, name: s.name?.trim() || null, link: checkUrl(s.link, `${at}.socialMedias[${j}].link`) })),
    };
    return { contactId: x.contactId, jobAreaId: x.jobAreaId, isDefault: x.isDefault, isDefaultCustomer: x.isDefaultCustomer, isDefaultSupplier: x.isDefaultSupplier };
  });
  return { clear, personal };
}

export function decidePartyBody(c: BodyContext, input: PartyInput): PartyBody {
  const fields = checkFields(c, input.fields);
  const country = (typeof fields.countryAcronym === 'string' ? fields.countryAcronym : null) ?? c.currentCountry ?? c.organisation.country!;
  const addresses = input.addresses ? checkAddresses(input.addresses) : null;
  const contacts = input.contacts ? checkContacts(c, input.contacts, country) : null;
  const paymentTermLines = input.paymentTermLines ? decidePaymentTermLines(input.paymentTermLines, (id) => c.settings.paymentMeans.has(id)) : null;
  const personal = checkPersonal(c, input.personal, country);
  // The VAT number is sealed with the rest of the personal fields; whether there is one is a clear fact (tax treatments).
  if ('vatNumber' in personal) fields.hasVatNumber = personal.vatNumber !== null;
  return {
    fields,
    addresses: addresses?.clear ?? null,
    contacts: contacts?.clear ?? null,
    paymentTermLines,
    personal: { fields: personal, addresses: addresses?.personal ?? {}, contacts: contacts?.personal ?? {} },
  };
}
