/**
 * The accounting enumerations (chart, journal types, exercises, entries). The spec names them without
 * values; the values are ours (DESIGN.md leaves them open). The GraphQL SDL, zod validation and read
 * models all derive from these arrays.
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

/** The accounting module's GraphQL enumerations (modules/accounting.ts). */
export const ACCOUNTING_ENUMS = {
  AccountLevel, AccountType, SubAccountType, JournalTypeType, ExerciseStatus, Month, AccountingEntryType, SourceType, CreditNoteReason,
} as const;
