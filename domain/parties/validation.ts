/**
 * Format and checksum checks that real users need on party and settings data, delegated to well-kept
 * libraries instead of hand-written tables: VAT numbers (jsvat-next: per-country formats and check
 * digits for the EU, GB, CH, NO...; validator's isVAT for the other countries it knows), IBAN and BIC
 * (ibantools: ISO 13616 mod-97 and ISO 9362), e-mail addresses (validator), phone numbers
 * (libphonenumber-js: Google's metadata). Each check returns the canonical form to store, or fails
 * with the business error naming the field. Pure: no I/O.
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import jsvatModule from 'jsvat-next';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import validator from 'validator';
import { Errors, Reasons, fail } from '../errors.ts';
import { PartyErrors } from './errors.ts';
import { COUNTRIES, type CountryRef } from '../reference/countries.ts';

// jsvat-next is CommonJS whose exports Node cannot name statically: take them from the default export.
const jsvat = jsvatModule as unknown as typeof import('jsvat-next');

export const VALIDATION_LIMITS = Object.freeze({ maxEmailLength: 254, maxPhoneLength: 40, maxVatLength: 20 });

const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.isoCodeAlpha2, c]));

/** An ISO 3166-1 alpha-2 code from the countries list. */
export function checkCountry(code: string, field: string): CountryRef {
  return COUNTRY_BY_CODE.get(code.trim().toUpperCase()) ?? fail(PartyErrors.invalidCountry, { field, value: code });
}

/**
 * A VAT number of a party in `countryCode`, with or without its country prefix. Stored with the prefix
 * the EU's VIES uses (EL for Greece) where one exists, so the same number is always written the same way.
 */
export function checkVatNumber(raw: string, countryCode: string, field: string): string {
  const text = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  if (text.length === 0 || text.length > VALIDATION_LIMITS.maxVatLength + 2) fail(PartyErrors.invalidVatNumber, { field, value: raw, country: countryCode });
  const country = checkCountry(countryCode, field);
  const jsvatCountry = jsvat.countries.find((c) => c.codes[0] === country.isoCodeAlpha2);
  if (jsvatCountry) {
    const prefix = country.viesCode ?? country.isoCodeAlpha2;
    const withPrefix = text.startsWith(prefix) ? text : `${prefix}${text.startsWith(country.isoCodeAlpha2) ? text.slice(2) : text}`;
    if (!jsvat.checkVAT(withPrefix, [jsvatCountry]).isValid) fail(PartyErrors.invalidVatNumber, { field, value: raw, country: country.isoCodeAlpha2 });
    return withPrefix;
  }
  const bare = text.startsWith(country.isoCodeAlpha2) ? text.slice(2) : text;
  const code = country.isoCodeAlpha2 as Parameters<typeof validator.isVAT>[1];
  try {
    if (!validator.isVAT(bare, code) && !validator.isVAT(text, code)) {
      fail(PartyErrors.invalidVatNumber, { field, value: raw, country: country.isoCodeAlpha2 });
    }
    return text;
  } catch (error) {
    if (!(error instanceof Error) || !/Invalid country code/.test(error.message)) throw error;
  }
  // A country neither library knows: the shape of a tax number, no checksum to verify.
  if (!/^[A-Z0-9]{2,20}$/.test(text)) fail(PartyErrors.invalidVatNumber, { field, value: raw, country: country.isoCodeAlpha2 });
  return text;
}

/** An IBAN in its electronic format (no spaces, upper case), checked by country length and mod-97. */
export function checkIban(raw: string, field: string): string {
  const iban = electronicFormatIBAN(raw) ?? '';
  if (!isValidIBAN(iban)) fail(PartyErrors.invalidIban, { field, value: raw });
  return iban;
}

/** A BIC (8 or 11 characters, with a real country code). */
export function checkBic(raw: string, field: string): string {
  const bic = raw.replace(/\s/g, '').toUpperCase();
  if (!isValidBIC(bic)) fail(PartyErrors.invalidBic, { field, value: raw });
  return bic;
}

export function checkEmail(raw: string, field: string): string {
  const email = raw.trim();
  if (email.length > VALIDATION_LIMITS.maxEmailLength || !validator.isEmail(email)) fail(PartyErrors.invalidEmail, { field, value: raw });
  return email;
}

/** A phone number, national numbers read in the party's country; stored in E.164 (+34612345678). */
export function checkPhone(raw: string, countryCode: string | null, field: string): string {
  if (raw.length > VALIDATION_LIMITS.maxPhoneLength) fail(PartyErrors.invalidPhone, { field, value: raw });
  const phone = parsePhoneNumberFromString(raw, (countryCode ?? undefined) as CountryCode | undefined);
  if (!phone || !phone.isValid()) fail(PartyErrors.invalidPhone, { field, value: raw });
  return phone.number;
}

/** At most one item of a list carries `flag` (one default contact, one main address...). */
export function checkAtMostOne<T>(items: readonly T[], flag: (item: T) => boolean | null | undefined, field: string): void {
  if (items.filter((item) => flag(item)).length > 1) fail(PartyErrors.moreThanOneDefault, { field });
}

/** A web address (social media profiles): http(s) only, so no script or data URL reaches a client. */
export function checkUrl(raw: string, field: string): string {
  const url = raw.trim();
  if (!validator.isURL(url, { protocols: ['http', 'https'], require_protocol: true })) fail(Errors.invalidInput, { field, value: url, reason: Reasons.httpUrl });
  return url;
}
