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

/** From when a payment term line's days run. */
export const PaymentTermLineCondition = ['INVOICE_DATE', 'END_OF_MONTH', 'DELIVERY_DATE'] as const;
export type PaymentTermLineCondition = (typeof PaymentTermLineCondition)[number];

/** PERCENTAGE: `value` percent of the total; REMAINDER: what the other lines leave (last line only). */
export const PaymentTermLineType = ['PERCENTAGE', 'REMAINDER'] as const;
export type PaymentTermLineType = (typeof PaymentTermLineType)[number];

export const PaymentMethodType = ['BANK_TRANSFER', 'DIRECT_DEBIT', 'CASH', 'CHECK', 'CARD', 'PROMISSORY_NOTE', 'OTHER'] as const;
export type PaymentMethodType = (typeof PaymentMethodType)[number];

export const ProductType = ['GOODS', 'SERVICE'] as const;
export type ProductType = (typeof ProductType)[number];
