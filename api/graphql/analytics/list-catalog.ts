/**
 * The list catalog (breadth §4 "List catalog"): one static definition per list, each a resource's rows under named
 * filters and orders. A filter is a `where` of the resource's own filter input (the one its GraphQL connection
 * and REST collection take, compiled by query-builder.ts), an order its `order`; `%%SEARCH%%` in a filter stands
 * for the caller's `search`. The salesInvoices filters and orders are Sage's (S1); the others are ours, in that
 * style. The entity key is the list's query root. Sage's purchase lists are not offered: purchases are not built.
 */
import type { Resource } from '../../../projections/engine/resource.ts';
import { AccountingEntry, AccountingEntryLine } from '../../../projections/accounting/read-models.ts';
import { Product } from '../../../projections/catalog/read-models.ts';
import { Customer, Supplier } from '../../../projections/parties/read-models.ts';
import { OpenItem, SALES_DOCUMENTS, SALES_KINDS, SALES_LINES, SalesInvoice } from '../../../projections/sales/read-models.ts';

export type Filter = Record<string, unknown>;
type Sort = Record<string, unknown>;

/** What a filter may depend on: today (overdue items) and the organisation's country (national invoices). */
export interface ListEnvironment {
  today: string;
  country: string | null;
}

export const SEARCH = '%%SEARCH%%';

export interface ListContext {
  entityKey: string;
  context: string;
  resource: Resource;
  /** A filter, or one that depends on the environment (only those make the organisation be read). */
  filters: Readonly<Record<string, Filter | ((env: ListEnvironment) => Filter)>>;
  orderBy: Readonly<Record<string, readonly Sort[]>>;
  /** The rows within [min, max) (instants: the first day's start, the day after the last; null: unbounded); absent: no date range. */
  dateRange?: (min: string | null, max: string | null) => Filter;
}

const fixed = (filter: Filter) => filter;
const between = (field: string) => (min: string | null, max: string | null): Filter => ({ [field]: { ...(min == null ? {} : { gte: min }), ...(max == null ? {} : { lt: max }) } });
const through = (reference: string, field: string) => (min: string | null, max: string | null): Filter => ({ [reference]: between(field)(min, max) });

const party = (entityKey: string, context: string, resource: Resource, plural: string): ListContext => ({
  entityKey, context, resource,
  filters: {
    [`All ${plural}`]: fixed({}),
    [`Active ${plural}`]: fixed({ disabled: { neq: true } }),
    'Search by name or code': fixed({ or: [{ socialName: { contains: SEARCH } }, { code: { startsWith: SEARCH } }] }),
  },
  orderBy: { Code: [{ code: 'ASC' }], Name: [{ socialName: 'ASC' }, { code: 'ASC' }] },
});

const products: ListContext = {
  entityKey: 'products', context: 'Products', resource: Product,
  filters: {
    'All products': fixed({}),
    'Active products': fixed({ obsolete: { neq: true } }),
    'Search by name or code': fixed({ or: [{ name: { contains: SEARCH } }, { code: { startsWith: SEARCH } }] }),
  },
  orderBy: { Code: [{ code: 'ASC' }], Name: [{ name: 'ASC' }, { code: 'ASC' }] },
};

const dueToday = (env: ListEnvironment) => `${env.today}T00:00:00.000Z`;

const NOTHING: Filter = { id: { in: [] } };
// (neq with a value is null-safe: IS DISTINCT FROM; a customer of no country is not foreign.)
const foreignCustomer = (env: ListEnvironment): Filter =>
  env.country == null ? NOTHING : { customer: { and: [{ countryAcronym: { neq: null } }, { countryAcronym: { neq: env.country } }] } };

/** Sage's salesInvoices filters (S1): statuses, due dates against today, types, the customer's country. */
const invoices: ListContext = {
  entityKey: 'salesInvoices', context: 'Sales Invoices', resource: SalesInvoice,
  filters: {
    'All invoices': fixed({}),
    'Validated invoices': fixed({ status: { neq: 'Pending' } }),
    Draft: fixed({ status: { eq: 'Pending' } }),
    'Unpaid - upcoming': (env) => ({ status: { eq: 'Posted' }, firstDueDate: { gte: dueToday(env) } }),
    'Unpaid - overdue': (env) => ({ status: { eq: 'Posted' }, firstDueDate: { lt: dueToday(env) } }),
    'Partially paid - upcoming': (env) => ({ status: { eq: 'PartiallyCollected' }, firstDueDate: { gte: dueToday(env) } }),
    'Partially paid - overdue': (env) => ({ status: { eq: 'PartiallyCollected' }, firstDueDate: { lt: dueToday(env) } }),
    Paid: fixed({ status: { eq: 'Collected' } }),
    'Credit notes': fixed({ type: { eq: 'CREDIT_NOTE' } }),
    'Payment in advance': fixed({ type: { eq: 'PAYMENT_IN_ADVANCE' } }),
    // Each invoice is one or the other: foreign when its customer has a country that is not the organisation's
    // (none is, when the organisation has no country); national otherwise (no country, or no customer row).
    'National invoices': (env) => ({ not: foreignCustomer(env) }),
    'Foreign invoices': (env) => foreignCustomer(env),
    'Search by customer id': fixed({ customerId: { eq: SEARCH } }),
  },
  orderBy: { 'Invoice date desc': [{ documentDate: 'DESC' }, { operationalNumber: 'DESC' }], 'Invoice number': [{ operationalNumber: 'ASC' }] },
  dateRange: between('documentDate'),
};

const OTHER_DOCUMENTS = [
  ['QUOTE', 'Quote', 'quotes', ['Pending', 'Closed', 'Declined']],
  ['ORDER', 'Order', 'orders', ['Pending', 'Closed']],
  ['DELIVERY_NOTE', 'Delivery Note', 'delivery notes', ['Pending', 'Closed']],
] as const;

const documents = OTHER_DOCUMENTS.map(([kind, name, plural, statuses]): ListContext => ({
  entityKey: SALES_KINDS[kind].root, context: `Sales ${name}s`, resource: SALES_DOCUMENTS[kind],
  filters: {
    [`All ${plural}`]: fixed({}),
    ...Object.fromEntries(statuses.map((status) => [status, fixed({ status: { eq: status } })])),
    'Search by customer id': fixed({ customerId: { eq: SEARCH } }),
  },
  orderBy: { [`${name} date desc`]: [{ documentDate: 'DESC' }, { operationalNumber: 'DESC' }], [`${name} number`]: [{ operationalNumber: 'ASC' }] },
  dateRange: between('documentDate'),
}));

const lines = (['QUOTE', 'ORDER', 'DELIVERY_NOTE', 'INVOICE'] as const).map((kind): ListContext => {
  const documentField = SALES_KINDS[kind].documentField;
  const name = SALES_KINDS[kind].document.replace(/^Sales/, '').replace(/([a-z])([A-Z])/g, '$1 $2');
  return {
    entityKey: SALES_LINES[kind].query!.field, context: `Sales ${name} Lines`, resource: SALES_LINES[kind],
    filters: {
      'All lines': fixed({}),
      'Search by product id': fixed({ productId: { eq: SEARCH } }),
      'Search by document id': fixed({ [documentField]: { eq: SEARCH } }),
    },
    orderBy: { 'Document and order': [{ [documentField]: 'ASC' }, { order: 'ASC' }], 'Product code': [{ productCode: 'ASC' }] },
    dateRange: through(documentField.replace(/Id$/, ''), 'documentDate'),
  };
});

const openItems: ListContext = {
  entityKey: 'salesInvoiceOpenItems', context: 'Sales Invoice Open Items', resource: OpenItem,
  filters: {
    'All open items': fixed({}),
    Unpaid: fixed({ status: { in: ['NOT_SPECIFIED', 'PARTIAL'] } }),
    Overdue: (env) => ({ status: { in: ['NOT_SPECIFIED', 'PARTIAL'] }, dueDate: { lt: dueToday(env) } }),
    Collected: fixed({ status: { eq: 'COLLECTED' } }),
    'Search by invoice id': fixed({ salesInvoiceId: { eq: SEARCH } }),
  },
  orderBy: { 'Due date': [{ dueDate: 'ASC' }], 'Due date desc': [{ dueDate: 'DESC' }] },
  dateRange: between('dueDate'),
};

const entries: ListContext = {
  entityKey: 'accountingEntries', context: 'Accounting Entries', resource: AccountingEntry,
  filters: {
    'All entries': fixed({}),
    'Search by journal code': fixed({ journalType: { code: { eq: SEARCH } } }),
    'Search by description': fixed({ description: { contains: SEARCH } }),
  },
  orderBy: { 'Entry date desc': [{ date: 'DESC' }, { number: 'DESC' }], 'Entry number': [{ number: 'ASC' }] },
  dateRange: between('date'),
};

const entryLines: ListContext = {
  entityKey: 'accountingEntryLines', context: 'Accounting Entry Lines', resource: AccountingEntryLine,
  filters: {
    'All lines': fixed({}),
    'Search by account code': fixed({ subAccount: { code: { startsWith: SEARCH } } }),
    'Search by entry id': fixed({ accountingEntryId: { eq: SEARCH } }),
  },
  orderBy: { 'Entry and order': [{ accountingEntryId: 'ASC' }, { order: 'ASC' }] },
  dateRange: through('accountingEntry', 'date'),
};

export const LIST_CONTEXTS: readonly ListContext[] = [
  party('customers', 'Customers', Customer, 'customers'),
  party('suppliers', 'Suppliers', Supplier, 'suppliers'),
  products, ...documents, invoices, ...lines, openItems, entries, entryLines,
];

/** Sage's lists this service does not serve yet, and why. */
export const UNSERVED_LISTS: Readonly<Record<string, string>> = {
  purchaseInvoices: 'purchase invoices are not served yet',
  purchaseInvoiceLines: 'purchase invoices are not served yet',
  purchaseInvoiceOpenItems: 'purchase invoices are not served yet',
};

export const listDefinitionOf = (c: ListContext) => ({
  entityKey: c.entityKey, context: c.context, filters: Object.keys(c.filters), orderBy: Object.keys(c.orderBy), supportsDateRange: c.dateRange !== undefined,
});
