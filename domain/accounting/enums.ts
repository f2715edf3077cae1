/**
 * The accounting enumerations (chart, journal types, exercises, entries), with Sage Active's values
 * (issue 17; shared/research/sage-names.md §4.1). The GraphQL SDL, zod validation and read models all
 * derive from these arrays. Where the domain needs a distinction Sage's values lack, it stays internal
 * (an account's nature, AccountNature below). RENAMED says how each of our first values reads now: the
 * upcasters (organisation-upcasters.ts, ledger-upcasters.ts) apply it to the events stored with them.
 */
import type { Renaming } from '../renaming.ts';

/**
 * GROUP, SUB_GROUP, ACCOUNT, SUB_ACCOUNT are the Spanish plan's grupo (1 digit), subgrupo (2), cuenta (3)
 * and subcuenta (posting); BREAKDOWN and TOTAL are levels of Sage's report layouts we do not install.
 */
export const AccountLevel = ['UNDEFINED', 'ACCOUNT', 'BREAKDOWN', 'GROUP', 'SUB_ACCOUNT', 'SUB_GROUP', 'TOTAL'] as const;
export type AccountLevel = (typeof AccountLevel)[number];
/** Entries post to SUB_ACCOUNT level only; the others are headings that aggregate. */
export const POSTING_LEVEL: AccountLevel = 'SUB_ACCOUNT';

/** Which statement an account belongs to. ECPN (ES), SPECIAL (FR) and STATISTICAL (DE) are classes 8-9. */
export const AccountType = ['UNDEFINED', 'BALANCE_SHEET', 'ECPN', 'INCOME_STATEMENT', 'SPECIAL', 'STATISTICAL'] as const;
export type AccountType = (typeof AccountType)[number];

/**
 * What an account is, finer than its statement: what reports and the year end need (balance sheet sides,
 * the result). Internal: the charts carry it per line (domain/reference/charts.ts), the API shows accountType.
 */
export const AccountNature = ['ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE', 'OFF_BALANCE'] as const;
export type AccountNature = (typeof AccountNature)[number];

/** The statement of each nature; off-balance lines are DE class 9 in our charts, Sage's STATISTICAL. */
export const ACCOUNT_TYPE_OF: Readonly<Record<AccountNature, AccountType>> = {
  ASSET: 'BALANCE_SHEET', LIABILITY: 'BALANCE_SHEET', EQUITY: 'BALANCE_SHEET',
  INCOME: 'INCOME_STATEMENT', EXPENSE: 'INCOME_STATEMENT', OFF_BALANCE: 'STATISTICAL',
};

export const SubAccountType = [
  'UNDEFINED', 'AGGREGATE_CARRIED_FORWARD', 'BALANCE_CARRIED_FORWARD', 'BANK', 'BORROWED_CAPITAL', 'BORROWED_CAPITAL_OUTPUT_TAX',
  'CAPITAL', 'CASH', 'CHARGE', 'COST', 'CURRENT_ASSETS', 'CURRENT_ASSETS_INPUT_TAX', 'CUSTOMER', 'CUSTOMER_PREPAYMENT',
  'CUSTOMER_PREPAYMENT_TAX_INCLUDED', 'CUSTOMER_RETURNABLE_PACKAGING', 'DEPRECIATION_PROVISION', 'EMPLOYEE',
  'EXCHANGE_RATE_EXPENSE', 'EXCHANGE_RATE_INCOME', 'FIXED_ASSET', 'INPUT_TAX', 'MANAGEMENT_RESULT', 'NEUTRAL_EXPENSES',
  'NEUTRAL_REVENUE', 'OTHER_BALANCE_SHEET_ACCOUNT', 'OUTPUT_TAX', 'PROVIDER', 'REDUCTION_IN_EXPENSES', 'RESULT_BALANCE_SHEET',
  'REVENUE', 'SALES_DEDUCTION', 'STATISTICAL_BALANCE', 'STATISTICAL_CONSUMPTION', 'STOCK', 'SUPPLIER_PREPAYMENT',
  'SUPPLIER_PREPAYMENT_TAX_INCLUDED', 'SUPPLIER_RETURNABLE_PACKAGING', 'TITLE',
] as const;
export type SubAccountType = (typeof SubAccountType)[number];

/**
 * The sub-type of an account with no particular role (our first GENERAL): Sage's common sub-types by
 * nature, CHARGE for expenses, REVENUE for income, CAPITAL for equity, UNDEFINED otherwise.
 */
export const PLAIN_SUB_ACCOUNT_TYPE: Readonly<Record<AccountNature, SubAccountType>> = {
  EXPENSE: 'CHARGE', INCOME: 'REVENUE', EQUITY: 'CAPITAL', ASSET: 'UNDEFINED', LIABILITY: 'UNDEFINED', OFF_BALANCE: 'UNDEFINED',
};

/**
 * Sage's journal types. Bank and cash journals are both FINANCIAL (their codes and names tell them apart;
 * nothing in the ledger depends on the difference); a credit-note journal is an invoice journal with
 * isCreditNote; opening balances are CARRY_FORWARD.
 */
export const JournalTypeType = ['CARRY_FORWARD', 'CLOSING', 'FINANCIAL', 'GENERAL', 'PURCHASE_INVOICE', 'SALES_INVOICE'] as const;
export type JournalTypeType = (typeof JournalTypeType)[number];

export const ExerciseStatus = ['UNDEFINED', 'CLOSED', 'OPEN'] as const;
export type ExerciseStatus = (typeof ExerciseStatus)[number];

export const Month = [
  'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE',
  'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER',
] as const;
export type Month = (typeof Month)[number];

/** GENERAL is an ordinary entry; CLOSURE_ACCOUNTING closes the income statement into the result, CLOSURE_EXERCISE the balance sheet. */
export const AccountingEntryType = [
  'UNDEFINED', 'CASH_VAT_ADJUSTMENT', 'CLOSURE_ACCOUNTING', 'CLOSURE_EXERCISE', 'CLOSURE_WORTH', 'GENERAL', 'OPENING', 'TEMPORARY_CARRY_FORWARD',
] as const;
export type AccountingEntryType = (typeof AccountingEntryType)[number];
/** A year end's closing entries, on the exercise it closes: the statements, KPIs and analytics leave them out. */
export const CLOSING_ENTRY_TYPES = ['CLOSURE_ACCOUNTING', 'CLOSURE_EXERCISE', 'CLOSURE_WORTH'] as const satisfies readonly AccountingEntryType[];
/** The carry-forward entry a year end posts on the next exercise's first day. */
export const OPENING_ENTRY_TYPE = 'OPENING' satisfies AccountingEntryType;

/** Where a document came from; IMPORT_FILE is the value Sage's entries carry, IMPORT_FILES the others'. */
export const SourceType = [
  'ACCOUNTING', 'AP_AUTOMATION', 'BANK_SMART_AGENT', 'BANKING', 'E_INVOICING_AP_AUTOMATION', 'EMAIL_AP_AUTOMATION', 'FIXED_ASSETS',
  'GLOBAL', 'IMPORT_FILE', 'IMPORT_FILES', 'INTEGRATION_API', 'ONLINE_PAYMENTS', 'PUBLIC_API', 'PUBLIC_API_AP_AUTOMATION',
  'SAGE_DE_PAYROLL_CLOUD', 'SAGE_FR_PAYROLL_CLOUD', 'SAGE_MOBILE_APP_AP_AUTOMATION', 'SALES', 'SCHEDULER_SERVICE',
  'YEAR_END_PROCESS', 'YEAR_END_PROCESS_PREVIEW',
] as const;
export type SourceType = (typeof SourceType)[number];

/** The causes of a Spanish corrective invoice (RD 1619/2012 art. 15; the R1-R5 of the SII and Verifactu). */
export const CreditNoteReason = ['UNDEFINED', 'R1', 'R2', 'R3', 'R4', 'R5'] as const;
export type CreditNoteReason = (typeof CreditNoteReason)[number];

export const RENAMED = {
  /** The Spanish plan's names: our class is Sage's group, our group its sub-group. */
  accountLevel: { CLASS: 'GROUP', GROUP: 'SUB_GROUP' } as Renaming<AccountLevel>,
  /** Our account types were natures; see ACCOUNT_TYPE_OF. */
  accountType: ACCOUNT_TYPE_OF as Renaming<AccountType>,
  /** GENERAL has no single counterpart: PLAIN_SUB_ACCOUNT_TYPE of the account's nature. */
  subAccountType: {
    SUPPLIER: 'PROVIDER', VAT_DEDUCTIBLE: 'INPUT_TAX', VAT_COLLECTED: 'OUTPUT_TAX', ACCUMULATED_DEPRECIATION: 'DEPRECIATION_PROVISION',
  } as Renaming<SubAccountType>,
  /** Payroll journals hold ordinary entries: GENERAL (Sage's payroll posts through a source, not a journal type). */
  journalType: {
    SALES_CREDIT_NOTE: 'SALES_INVOICE', PURCHASE_CREDIT_NOTE: 'PURCHASE_INVOICE', BANK: 'FINANCIAL', CASH: 'FINANCIAL',
    PAYROLL: 'GENERAL', OPENING: 'CARRY_FORWARD',
  } as Renaming<JournalTypeType>,
  /** Our regularisation closed the income statement into the result (CLOSURE_ACCOUNTING), our closing the exercise. */
  entryType: { STANDARD: 'GENERAL', CLOSING: 'CLOSURE_EXERCISE', REGULARIZATION: 'CLOSURE_ACCOUNTING' } as Renaming<AccountingEntryType>,
  /**
   * MANUAL (keyed in by a person) is Sage's ACCOUNTING, its accounting application's own entries; SYSTEM
   * (made by the service itself) is YEAR_END_PROCESS, the only entries a ledger makes on its own being the
   * year end's; purchase invoices reach Sage's ledger through AP_AUTOMATION.
   */
  sourceType: {
    MANUAL: 'ACCOUNTING', API: 'PUBLIC_API', SALES_INVOICE: 'SALES', PURCHASE_INVOICE: 'AP_AUTOMATION', BANK: 'BANKING',
    IMPORT: 'IMPORT_FILES', SYSTEM: 'YEAR_END_PROCESS',
  } as Renaming<SourceType>,
  /** R1: an error in law and art. 80 One, Two, Six LIVA (returns, discounts, cancellations); R4: any other cause, an ordinary correction among them (RD 1619/2012). */
  creditNoteReason: { RETURN: 'R1', DISCOUNT: 'R1', CANCELLATION: 'R1', CORRECTION: 'R4', OTHER: 'R4' } as Renaming<CreditNoteReason>,
} as const;

/** The accounting module's GraphQL enumerations (modules/accounting.ts). */
export const ACCOUNTING_ENUMS = {
  AccountLevel, AccountType, SubAccountType, JournalTypeType, ExerciseStatus, Month, AccountingEntryType, SourceType, CreditNoteReason,
} as const;
