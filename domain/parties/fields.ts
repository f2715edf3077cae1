/**
 * What a party (customer, supplier, employee) is made of, split the way the right to erasure needs it:
 * clear fields (codes, states, flags, references: what the books and the deciders need) and personal
 * fields (names, identifiers, addresses' lines, contacts' names, e-mails, phones). Personal fields are
 * encrypted in events with a key per data subject and anonymised when the key is destroyed, so this
 * file is the one list both the command side and the projections read.
 */
import type { Courtesy, EmailUsage, PhoneType } from './enums.ts';

export const PartyKind = ['customer', 'supplier', 'employee'] as const;
export type PartyKind = (typeof PartyKind)[number];

/** Event type prefix per kind: CustomerCreated, SupplierDeleted, EmployeeGdprApplied... */
export const EVENT_PREFIX = { customer: 'Customer', supplier: 'Supplier', employee: 'Employee' } as const satisfies Record<PartyKind, string>;

/** Generated codes: prefix and zero-padded sequence (C00001, S00001, E00001). */
export const CODE_FORMAT = { customer: 'C', supplier: 'S', employee: 'E' } as const satisfies Record<PartyKind, string>;
export const CODE_DIGITS = 5;

/** Top-level personal fields per kind. Everything else of the party is clear. */
export const PERSONAL_FIELDS = {
  customer: ['socialName', 'tradeName', 'documentId', 'vatNumber', 'comments', 'specialMention', 'eInvoicingAddress'],
  supplier: ['socialName', 'tradeName', 'documentId', 'vatNumber', 'comments'],
  employee: ['name', 'shortName', 'comments'],
} as const satisfies Record<PartyKind, readonly string[]>;

/** After erasure the display name reads this (lists stay readable); every other personal field is null. */
export const ERASED_NAME = 'Anonymised';
export const DISPLAY_NAME_FIELD = { customer: 'socialName', supplier: 'socialName', employee: 'name' } as const satisfies Record<PartyKind, string>;

export const ADDRESS_PERSONAL_FIELDS = ['name', 'firstLine', 'secondLine', 'city', 'province', 'zipCode'] as const;
export const CONTACT_PERSONAL_FIELDS = ['courtesy', 'name', 'surname', 'jobName'] as const;

export type ClearValue = string | number | boolean | null;
export type ClearFields = Record<string, ClearValue>;
export type PersonalFields = Record<string, string | null>;

/** An address: the country and the flags stay clear (tax reporting needs the country), its lines are personal. */
export interface AddressClear {
  addressId: string;
  countryIsoCodeAlpha2: string | null;
  isMainAddress: boolean;
  isDeliveryAddress: boolean;
  isDefaultDeliveryAddress: boolean;
}
export type AddressPersonal = Record<(typeof ADDRESS_PERSONAL_FIELDS)[number], string | null>;

export interface ContactEmail {
  emailId: string;
  emailAddress: string;
  usage: EmailUsage | null;
  isDefault: boolean;
}
export interface ContactPhone {
  phoneId: string;
  number: string;
  type: PhoneType | null;
  isDefault: boolean;
}
export interface ContactSocialMedia {
  socialMediaId: string;
  name: string | null;
  link: string;
}

/** A contact: its id, job area and default flags stay clear; who it is and how to reach them is personal. */
export interface ContactClear {
  contactId: string;
  jobAreaId: string | null;
  isDefault: boolean;
  isDefaultCustomer: boolean;
  isDefaultSupplier: boolean;
}
export interface ContactPersonal {
  courtesy: Courtesy | null;
  name: string | null;
  surname: string | null;
  jobName: string | null;
  emails: ContactEmail[];
  phones: ContactPhone[];
  socialMedias: ContactSocialMedia[];
}

/** The personal part of one party event, in clear: the command side seals it before appending. */
export interface PartyPersonal {
  fields: PersonalFields;
  addresses: Record<string, AddressPersonal>;
  contacts: Record<string, ContactPersonal>;
}

/** Input shapes: the clear and personal parts of an address or contact together, ids already assigned. */
export type AddressInput = AddressClear & Partial<AddressPersonal>;
export type ContactInput = ContactClear & Omit<ContactPersonal, 'emails' | 'phones' | 'socialMedias'> & Partial<Pick<ContactPersonal, 'emails' | 'phones' | 'socialMedias'>>;

/** Clear fields' defaults per kind, applied at creation. */
export const DEFAULTS: Record<PartyKind, ClearFields> = {
  customer: {
    customerType: 'BUSINESS', status: 'ENABLED', disabled: false, blockDeliveryNoteEnabled: false, blockInvoiceEnabled: false,
    blockOrderEnabled: false, hasEquivalenceSurcharge: false, nonIdentifiedCustomer: false, printNameOnPdf: true, discount: '0.00',
  },
  supplier: { supplierType: 'BUSINESS', status: 'ENABLED', disabled: false, hasEquivalenceSurcharge: false, discount: '0.00' },
  employee: { status: 'ENABLED', disabled: false },
};

/** Clear fields that name an account of the organisation's chart. */
export const ACCOUNT_FIELDS = ['defaultAccountingAccountId', 'defaultPrepaymentAccountingAccountId', 'defaultExpenseAccountingAccountId'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];
