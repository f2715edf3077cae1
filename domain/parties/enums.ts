/**
 * The parties' enumerations with Sage Active's values (shared/research/sage-names.md §4.1): clients send
 * and read these literally. The GraphQL SDL, zod validation and read models derive from these arrays.
 * Values stored by earlier versions are renamed on reading (party-upcasters.ts, the maps below).
 */
export const CustomerType = ['BUSINESS', 'INDIVIDUAL'] as const;
export type CustomerType = (typeof CustomerType)[number];

/**
 * A party's standing. GDPR_APPLIED is not something a client sets: it is the status of an erased party,
 * derived from the erasure (applyGdpr*). NONE is a party with no standing yet.
 */
export const PartyStatus = ['NONE', 'DISABLED', 'ENABLED', 'GDPR_APPLIED'] as const;
export type PartyStatus = (typeof PartyStatus)[number];
export const CustomerStatus = PartyStatus;
export type CustomerStatus = PartyStatus;
/** The status only an erasure gives. */
export const ERASED_STATUS = 'GDPR_APPLIED' satisfies PartyStatus;

/** Suppliers are modelled on customers (Sage shows no type of their own): the same kinds of party and states. */
export const SupplierType = CustomerType;
export const SupplierStatus = PartyStatus;
export const EmployeeStatus = PartyStatus;
export type EmployeeStatus = PartyStatus;

/** Languages documents are printed in. */
export const LanguageType = ['ENGLISH', 'FRENCH', 'GERMAN', 'SPANISH'] as const;
export type LanguageType = (typeof LanguageType)[number];

/** NONE: not given; BLANK: given as no title (printed as nothing); MISS: the female title (Sra., Mme, Frau). */
export const Courtesy = ['NONE', 'BLANK', 'MISS', 'MR'] as const;
export type Courtesy = (typeof Courtesy)[number];

export const EmailUsage = ['EMPTY', 'INVOICES', 'NOT_SET', 'OTHERS', 'PAYMENTS'] as const;
export type EmailUsage = (typeof EmailUsage)[number];

export const PhoneType = ['EMPTY', 'FAX', 'LANDLINE', 'MOBILE', 'NOT_SET', 'SKYPE', 'WHATS_APP'] as const;
export type PhoneType = (typeof PhoneType)[number];

/** What an item of an update's sub-collection asks (Sage's requestedAction): see sub-collections.ts. */
export const RequestedAction = ['CREATE', 'MODIFY', 'DELETE'] as const;
export type RequestedAction = (typeof RequestedAction)[number];

/** The collections an update replaces instead of appending to (replaceAll): a party's, and a contact's. */
export const PartyCollection = ['ADDRESSES', 'CONTACTS'] as const;
export type PartyCollection = (typeof PartyCollection)[number];
export const ContactCollection = ['EMAILS', 'PHONES', 'SOCIAL_MEDIAS'] as const;
export type ContactCollection = (typeof ContactCollection)[number];

/**
 * The values of the versions before Sage's, as they are read now. Where Sage has no counterpart:
 * - SELF_EMPLOYED is a natural person (INDIVIDUAL); PUBLIC_ADMINISTRATION a legal person (BUSINESS);
 * - PROSPECT had no standing yet (NONE); BLOCKED and TERMINATED can no longer be used (DISABLED);
 *   ON_LEAVE is still employed (ENABLED: leave is payroll's business, which Sage keeps elsewhere);
 * - IT PT NL CA EU GL: Sage prints in none of them, so the party has no document language (null: the
 *   organisation's language);
 * - MRS and MS are the female title (MISS); MX and DR are titles Sage cannot print (BLANK);
 * - e-mail usages other than invoices and payments are OTHERS; a phone of another kind is NOT_SET.
 */
export const RENAMED = {
  type: { COMPANY: 'BUSINESS', SELF_EMPLOYED: 'INDIVIDUAL', PUBLIC_ADMINISTRATION: 'BUSINESS' },
  status: { PROSPECT: 'NONE', ACTIVE: 'ENABLED', BLOCKED: 'DISABLED', ON_LEAVE: 'ENABLED', TERMINATED: 'DISABLED' },
  language: { EN: 'ENGLISH', FR: 'FRENCH', DE: 'GERMAN', ES: 'SPANISH', IT: null, PT: null, NL: null, CA: null, EU: null, GL: null },
  courtesy: { MRS: 'MISS', MS: 'MISS', MX: 'BLANK', DR: 'BLANK' },
  emailUsage: { GENERAL: 'OTHERS', INVOICING: 'INVOICES', ORDERS: 'OTHERS', DELIVERY: 'OTHERS', MARKETING: 'OTHERS' },
  phoneType: { OTHER: 'NOT_SET' },
} as const satisfies Record<string, Record<string, string | null>>;
