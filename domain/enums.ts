/**
 * Enumerations the spec names without values. The values are ours (DESIGN.md leaves them open);
 * the GraphQL SDL, zod validation and read models all derive from these arrays.
 */
export const AccountLevel = ['CLASS', 'GROUP', 'ACCOUNT', 'SUB_ACCOUNT'] as const;
export type AccountLevel = (typeof AccountLevel)[number];
/** Entries post to SUB_ACCOUNT level only; the others are headings that aggregate. */
export const POSTING_LEVEL: AccountLevel = 'SUB_ACCOUNT';

export const AccountType = ['ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE', 'OFF_BALANCE'] as const;
export type AccountType = (typeof AccountType)[number];

export const SubAccountType = [
  'GENERAL',
  'CUSTOMER',
  'SUPPLIER',
  'EMPLOYEE',
  'BANK',
  'CASH',
  'VAT_DEDUCTIBLE',
  'VAT_COLLECTED',
  'FIXED_ASSET',
  'ACCUMULATED_DEPRECIATION',
  'STOCK',
] as const;
export type SubAccountType = (typeof SubAccountType)[number];

export const JournalTypeType = [
  'GENERAL',
  'SALES_INVOICE',
  'SALES_CREDIT_NOTE',
  'PURCHASE_INVOICE',
  'PURCHASE_CREDIT_NOTE',
  'BANK',
  'CASH',
  'PAYROLL',
  'OPENING',
  'CLOSING',
] as const;
export type JournalTypeType = (typeof JournalTypeType)[number];

export const ExerciseStatus = ['OPEN', 'CLOSED'] as const;
export type ExerciseStatus = (typeof ExerciseStatus)[number];

export const Month = [
  'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE',
  'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER',
] as const;
export type Month = (typeof Month)[number];

export const AccountingEntryType = ['STANDARD', 'OPENING', 'CLOSING', 'REGULARIZATION'] as const;
export type AccountingEntryType = (typeof AccountingEntryType)[number];

export const SourceType = ['MANUAL', 'API', 'SALES_INVOICE', 'PURCHASE_INVOICE', 'BANK', 'IMPORT', 'SYSTEM'] as const;
export type SourceType = (typeof SourceType)[number];

export const CreditNoteReason = ['RETURN', 'DISCOUNT', 'CORRECTION', 'CANCELLATION', 'OTHER'] as const;
export type CreditNoteReason = (typeof CreditNoteReason)[number];

export const OrganisationCountry = ['ES', 'FR', 'DE', 'GB', 'IE', 'US', 'CA'] as const;
export type OrganisationCountry = (typeof OrganisationCountry)[number];

// Parties and shared settings (spec 2.6). Values are ours, as for the enumerations above.
export const CustomerType = ['COMPANY', 'INDIVIDUAL', 'SELF_EMPLOYED', 'PUBLIC_ADMINISTRATION'] as const;
export type CustomerType = (typeof CustomerType)[number];

export const CustomerStatus = ['PROSPECT', 'ACTIVE', 'BLOCKED'] as const;
export type CustomerStatus = (typeof CustomerStatus)[number];

/** Suppliers are modelled on customers (the spec does not show them): the same kinds of party and states. */
export const SupplierType = CustomerType;
export const SupplierStatus = CustomerStatus;

export const EmployeeStatus = ['ACTIVE', 'ON_LEAVE', 'TERMINATED'] as const;
export type EmployeeStatus = (typeof EmployeeStatus)[number];

/** Languages documents are printed in (ISO 639-1 codes, upper case). */
export const LanguageType = ['ES', 'EN', 'FR', 'DE', 'IT', 'PT', 'NL', 'CA', 'EU', 'GL'] as const;
export type LanguageType = (typeof LanguageType)[number];

export const Courtesy = ['MR', 'MRS', 'MS', 'MX', 'DR'] as const;
export type Courtesy = (typeof Courtesy)[number];

export const EmailUsage = ['GENERAL', 'INVOICING', 'ORDERS', 'DELIVERY', 'PAYMENTS', 'MARKETING'] as const;
export type EmailUsage = (typeof EmailUsage)[number];

export const PhoneType = ['LANDLINE', 'MOBILE', 'FAX', 'OTHER'] as const;
export type PhoneType = (typeof PhoneType)[number];
