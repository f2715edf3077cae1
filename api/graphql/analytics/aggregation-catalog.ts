/**
 * The aggregation catalog (breadth §4 "Catalog API"): one static definition per context, the only source of the
 * names aggregationExecute accepts. The ledger's and the sales contexts are Sage's (entity keys, filter, group-by
 * and column names as S1 gives them where it gives them); names S1 does not give are ours, in its style, and
 * marked "ours" below. Sage's purchase contexts ("Purchase Invoices by Supplier", "Purchase Invoice Payments by
 * Supplier") are not offered: purchases are not built, so their entity keys answer an unknown-context error.
 *
 * Each name maps to SQL over the context's source (sources.ts, alias `x`): a filter to a condition, a group-by
 * to its key and second value, a value column to a number, a distinct count to a column, a search scope to the
 * column the search text is compared with.
 */
import { entryLines, salesDocuments, salesLines, salesPayments, type Source } from './sources.ts';

export interface GroupBy {
  name: string;
  title1: string | null;
  title2: string | null;
  /** The group's value (groupValue); null: one group of everything. */
  key: string | null;
  /** Its second value (secondValue), e.g. the account's name beside its code. */
  second: string | null;
}

/** How the search text is compared: an id equal to it, or a code starting with it; `also`: a further condition. */
export interface SearchScope {
  column: string;
  match: 'id' | 'prefix';
  also?: string;
}

export interface AggregationContext {
  entityKey: string;
  context: string;
  source: Source;
  filters: Readonly<Record<string, string>>;
  groupBy: readonly GroupBy[];
  valueColumns: Readonly<Record<string, string>>;
  distinctCounts: Readonly<Record<string, string>>;
  searchScopes: Readonly<Record<string, SearchScope>>;
}

/**
 * Ours, in the historical API's words (`field|SUM|AVG|MIN|MAX|DISTINCTCOUNT`, `__count`): S1 does not list the
 * values of `aggregationTypes`. SUM, AVG, MIN and MAX apply to valueColumn1 and valueColumn2; COUNT counts the
 * rows and DISTINCTCOUNT the distinct values of distinctCountName (value1; value2 is null).
 */
export const AGGREGATION_TYPES = ['SUM', 'AVG', 'MIN', 'MAX', 'COUNT', 'DISTINCTCOUNT'] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];

/** Sage's period types (S1), and the date_trunc unit of each; None: one period, the whole range. */
export const PERIOD_TYPES: Readonly<Record<string, string | null>> = { Day: 'day', Week: 'week', Month: 'month', Quarter: 'quarter', Year: 'year', None: null };

const none: GroupBy = { name: 'None', title1: null, title2: null, key: null, second: null };

/** The ledger's filters (S1): by the account's nature (income statement charges and revenues) and third-party accounts. */
const LEDGER_FILTERS = {
  'All accounts': 'TRUE',
  'Charges & Revenues': `x.account_nature IN ('EXPENSE', 'INCOME')`,
  Charges: `x.account_nature = 'EXPENSE'`,
  Revenues: `x.account_nature = 'INCOME'`,
  'Suppliers & Customers': `x.sub_account_type IN ('CUSTOMER', 'PROVIDER')`,
};
const LEDGER_VALUES = { Debit: 'x.debit_amount', Credit: 'x.credit_amount' };
const LEDGER_DISTINCT = { 'Accounting Entries': 'x.accounting_entry_id', 'Accounting Exercises': 'x.accounting_exercise_id', 'Journal Types': 'x.journal_type_id' };
/**
 * S1 lists CustomerId and ProductId for the ledger: entry lines name no product, so only CustomerId (the line's
 * third party when it is a customer); Account Code (a code prefix) is ours.
 */
const LEDGER_SEARCH: Record<string, SearchScope> = {
  // The column compared plainly, so the lines' (organisation_id, third_party_id) index serves the search.
  CustomerId: { column: 'x.third_party_id', match: 'id', also: `x.third_party_origin = 'CUSTOMER'` },
  'Account Code': { column: 'x.account_code', match: 'prefix' },
};

const ledger = (entityKey: string, context: string, groupBy: GroupBy[]): AggregationContext => ({
  entityKey, context, source: entryLines, filters: LEDGER_FILTERS, groupBy: [none, ...groupBy], valueColumns: LEDGER_VALUES, distinctCounts: LEDGER_DISTINCT, searchScopes: LEDGER_SEARCH,
});

const byAccount = ledger('queryAggregateAccountingEntryLines', 'Accounting Entry Lines by Account', [
  { name: 'Account Code', title1: 'Account Code', title2: 'Account Name', key: 'x.account_code', second: 'x.account_name' },
  { name: 'First 2 Digits', title1: 'First 2 Digits', title2: null, key: 'left(x.account_code, 2)', second: null },
  { name: 'First 3 Digits', title1: 'First 3 Digits', title2: null, key: 'left(x.account_code, 3)', second: null },
]);

// Its group-bys are ours: S1 names the context only.
const byJournal = ledger('queryAggregateAccountingEntryLinesByJournal', 'Accounting Entry Lines by Journal', [
  { name: 'Journal', title1: 'Journal Code', title2: 'Journal Name', key: 'x.journal_code', second: 'x.journal_name' },
  { name: 'Journal Type', title1: 'Journal Type', title2: null, key: 'x.journal_type', second: null },
]);

const customer: GroupBy = { name: 'Customer', title1: 'Customer Code', title2: 'Customer Name', key: 'x.customer_code', second: 'x.customer_name' };
const product: GroupBy = { name: 'Product', title1: 'Product Code', title2: 'Product Name', key: 'x.product_code', second: 'x.product_name' };
const customerSearch = { CustomerId: { column: 'x.customer_id', match: 'id' } } as const;

/** Invoices' filters beyond S1's "All Customers" (ours): issued ones (not drafts), and invoices apart from credit notes. */
const invoiceFilters = {
  'All Customers': 'TRUE',
  'Issued invoices': `x.status <> 'Pending'`,
  Invoices: `x.invoice_type <> 'CREDIT_NOTE'`,
  'Credit notes': `x.invoice_type = 'CREDIT_NOTE'`,
};

const DOCUMENTS = [
  ['QUOTE', 'Quote', 'Quotes'],
  ['ORDER', 'Order', 'Orders'],
  ['DELIVERY_NOTE', 'DeliveryNote', 'Delivery Notes'],
  ['INVOICE', 'Invoice', 'Invoices'],
] as const;

/** "Sales Invoices by Customer" ... (S1's queryAggregateSalesInvoices: Customer; Total Net, Total Liquid; "All Customers"). */
const byCustomer = DOCUMENTS.map(([kind, key, plural]): AggregationContext => ({
  entityKey: `queryAggregateSales${key}s`,
  context: `Sales ${plural} by Customer`,
  source: salesDocuments(kind),
  filters: kind === 'INVOICE' ? invoiceFilters : { 'All Customers': 'TRUE' },
  groupBy: [none, customer],
  valueColumns: { 'Total Net': 'x.total_net', 'Total Liquid': 'x.total_liquid' },
  distinctCounts: { Documents: 'x.document_id', Customers: 'x.customer_id' },
  searchScopes: customerSearch,
}));

/** "Sales Invoice Lines by Product" ... (entity keys, filters and columns ours, after the documents' ones). */
const byProduct = DOCUMENTS.map(([kind, key, plural]): AggregationContext => ({
  entityKey: `queryAggregateSales${key}Lines`,
  context: `Sales ${plural.replace(/s$/, '')} Lines by Product`,
  source: salesLines(kind),
  filters: kind === 'INVOICE' ? { 'All Products': 'TRUE', ...Object.fromEntries(Object.entries(invoiceFilters).slice(1)) } : { 'All Products': 'TRUE' },
  groupBy: [none, product, customer],
  valueColumns: { 'Total Net': 'x.total_net', 'Total Gross': 'x.total_gross' },
  distinctCounts: { Documents: 'x.document_id', Products: 'x.product_id', Customers: 'x.customer_id' },
  searchScopes: { ...customerSearch, ProductId: { column: 'x.product_id', match: 'id' } },
}));

const payments: AggregationContext = {
  entityKey: 'queryAggregateSalesInvoicePayments',
  context: 'Sales Invoice Payments by Customer',
  source: salesPayments,
  filters: { 'All Customers': 'TRUE' },
  groupBy: [none, customer],
  valueColumns: { 'Paid Amount': 'x.paid_amount' },
  distinctCounts: { Settlements: 'x.settlement_id', Invoices: 'x.document_id', Customers: 'x.customer_id' },
  searchScopes: customerSearch,
};

export const AGGREGATION_CONTEXTS: readonly AggregationContext[] = [byAccount, byJournal, ...byProduct, ...byCustomer, payments];

/** Sage's contexts this service does not serve yet, and why (an execute naming one is told so). */
export const UNSERVED_CONTEXTS: Readonly<Record<string, string>> = {
  queryAggregatePurchaseInvoices: 'purchase invoices are not served yet',
  queryAggregatePurchaseInvoicePayments: 'purchase invoices are not served yet',
};

/** The catalog's entry of a definition: its names, in Sage's shape (AggregationDefinition). */
export const definitionOf = (c: AggregationContext) => ({
  entityKey: c.entityKey,
  context: c.context,
  aggregationTypes: [...AGGREGATION_TYPES],
  periodTypes: Object.keys(PERIOD_TYPES),
  filters: Object.keys(c.filters),
  groupBy: c.groupBy.map(({ name, title1, title2 }) => ({ name, title1, title2 })),
  valueColumns: Object.keys(c.valueColumns),
  distinctCounts: Object.keys(c.distinctCounts),
  searchScopes: Object.keys(c.searchScopes),
});
