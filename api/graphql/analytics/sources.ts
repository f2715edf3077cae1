/**
 * The rows each aggregation context reads, as FROM items `(SELECT ...) AS x` over $1 the organisation and the days
 * of one range (both included): one `day date` column and the columns the catalog's filters, group-bys, values
 * and searches name. All SQL of the read models the analytics touch is here, so a faster source (the kept
 * `account_day_balances` of the entries projection, for Debit and Credit) replaces one function, not the catalog.
 */
import { AccountingAccount, AccountingEntry, AccountingEntryLine, JournalType } from '../../../projections/accounting/read-models.ts';
import { Product } from '../../../projections/catalog/read-models.ts';
import { Customer } from '../../../projections/parties/read-models.ts';
import { CLOSING_ENTRY_TYPES } from '../../../domain/accounting/enums.ts';
import { SALES_DOCUMENTS, SALES_LINES, SALES_KINDS, SalesInvoice, SalesSettlementPayment } from '../../../projections/sales/read-models.ts';

/** Parameter placeholders of a range's first and last day (`$2`, `$3`). */
export interface DayRange {
  from: string;
  to: string;
}

/** A FROM item for the range; amounts in another currency are converted and rounded at `precision` (the organisation's). */
export type Source = (range: DayRange, precision: number) => string;

/**
 * A stored date-time column within the range: compared as instants (UTC days), so an index on the column serves it.
 * Entries and documents are dated at midnight UTC.
 */
const within = (column: string, range: DayRange) =>
  `${column} >= (${range.from}::date)::timestamp AT TIME ZONE 'UTC' AND ${column} < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
const dayOf = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;

/**
 * The ledger's lines with their entry's day, exercise and journal, and their account's code and kind. Closing entries
 * are left out, as the statements leave them: a year's regularisation would cancel its own charges and revenues.
 */
export const entryLines: Source = (range) => `(SELECT ${dayOf('e.date')} AS day, a.code AS account_code, coalesce(a.name, a.description) AS account_name,
    a.nature AS account_nature, a.sub_account_type, l.debit_amount, l.credit_amount, l.accounting_entry_id, e.accounting_exercise_id,
    e.journal_type_id, j.code AS journal_code, j.name AS journal_name, j.type AS journal_type, l.third_party_id, l.third_party_origin
  FROM ${AccountingEntry.table} e
  JOIN ${AccountingEntryLine.table} l ON l.organisation_id = e.organisation_id AND l.accounting_entry_id = e.id
  LEFT JOIN ${AccountingAccount.table} a ON a.organisation_id = l.organisation_id AND a.id = l.sub_account_id
  LEFT JOIN ${JournalType.table} j ON j.organisation_id = e.organisation_id AND j.id = e.journal_type_id
  WHERE e.organisation_id = $1 AND ${within('e.date', range)}
    AND (e.entry_type IS NULL OR e.entry_type::text NOT IN (${CLOSING_ENTRY_TYPES.map((type) => `'${type}'`).join(', ')}))) AS x`;

type SalesKind = keyof typeof SALES_KINDS;

/** An amount of a document in its currency, in the organisation's: at the document's rate, rounded as its entry is. */
const converted = (amount: string, precision: number) => `round(${amount} * coalesce(d.exchange_rate, 1), ${Math.trunc(precision)})`;

const customerColumns = `d.customer_id, coalesce(c.code, d.customer_id::text) AS customer_code, coalesce(c.social_name, d.social_name) AS customer_name`;
const customerJoin = `LEFT JOIN ${Customer.table} c ON c.organisation_id = d.organisation_id AND c.id = d.customer_id`;

/** One kind's documents (a quote, an order, a delivery note, an invoice or credit note) with their customer. */
export const salesDocuments = (kind: SalesKind): Source => (range, precision) => `(SELECT ${dayOf('d.document_date')} AS day, d.id AS document_id, d.status,
    ${kind === 'INVOICE' ? 'd.type' : 'NULL::text'} AS invoice_type, ${customerColumns},
    ${converted('d.total_net', precision)} AS total_net, ${converted('d.total_liquid', precision)} AS total_liquid
  FROM ${SALES_DOCUMENTS[kind].table} d ${customerJoin}
  WHERE d.organisation_id = $1 AND ${within('d.document_date', range)}) AS x`;

/** One kind's document lines with their document's day and customer and their product. */
export const salesLines = (kind: SalesKind): Source => (range, precision) => `(SELECT ${dayOf('d.document_date')} AS day, d.id AS document_id, d.status,
    ${kind === 'INVOICE' ? 'd.type' : 'NULL::text'} AS invoice_type, ${customerColumns},
    l.product_id, coalesce(p.code, l.product_code, l.product_id::text) AS product_code, coalesce(p.name, l.product_name) AS product_name,
    ${converted('l.total_net', precision)} AS total_net, ${converted('l.total_gross', precision)} AS total_gross
  FROM ${SALES_LINES[kind].table} l
  JOIN ${SALES_DOCUMENTS[kind].table} d ON d.organisation_id = l.organisation_id AND d.id = l.${SALES_KINDS[kind].documentField.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)}
  ${customerJoin}
  LEFT JOIN ${Product.table} p ON p.organisation_id = l.organisation_id AND p.id = l.product_id
  WHERE d.organisation_id = $1 AND ${within('d.document_date', range)}) AS x`;

/**
 * What customers paid, by the settlement's entry date: as salesKpis' MONEY_IN counts it (what the payment entry
 * debited; older payments at the invoice's rate), less the settlements undone.
 */
export const salesPayments: Source = (range, precision) => `(SELECT ${dayOf('p.entry_date')} AS day, p.settlement_id, d.id AS document_id, ${customerColumns},
    coalesce(p.organisation_amount, ${converted('p.paid_amount', precision)}) AS paid_amount
  FROM ${SalesSettlementPayment.table} p
  JOIN ${SalesInvoice.table} d ON d.organisation_id = p.organisation_id AND d.id = p.sales_invoice_id
  ${customerJoin}
  WHERE p.organisation_id = $1 AND NOT p.undone AND ${within('p.entry_date', range)}) AS x`;
