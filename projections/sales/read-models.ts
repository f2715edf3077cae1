/**
 * The sales documents as read models, in Sage's names (sage-names.md §5; breadth §1.1, §1.4, §1.5): the four
 * document kinds with their lines (a credit note is an invoice of type CREDIT_NOTE), the related documents and
 * the invoices' open items. Statuses are Strings, as Sage has them.
 */
import { CreditNoteReason } from '../../domain/accounting/enums.ts';
import { OpenItemStatus, SalesInvoiceType, RelatedSalesDocumentType, SalesLineOriginType } from '../../domain/sales/enums.ts';
import { Product } from '../catalog/read-models.ts';
import { f, type Field, type Resource } from '../engine/resource.ts';
import { Customer } from '../parties/read-models.ts';
import { PaymentMean, paymentTermLines } from '../settings/read-models.ts';

/** A postal address kept in hidden columns of its document (`main_address_city` ...), read as one object. */
const ADDRESS_PARTS = ['name', 'firstLine', 'secondLine', 'city', 'zipCode', 'province', 'countryIsoCodeAlpha2'] as const;

const capitalised = (name: string) => name[0].toUpperCase() + name.slice(1);

function address(name: 'mainAddress' | 'deliveryAddress'): Field[] {
  const stored = ADDRESS_PARTS.map((part) => f.string(`${name}${capitalised(part)}`, { hidden: true }));
  const object = f.computed(name, 'SalesDocumentAddress', (row) => {
    const parts = Object.fromEntries(ADDRESS_PARTS.map((part) => [part, row[`${name}${capitalised(part)}`] ?? null]));
    // countryId and countryName are Sage's too: the document records the country's ISO code, not the row's id.
    return Object.values(parts).every((v) => v === null) ? null : { ...parts, countryId: null, countryName: null };
  });
  return [...stored, object];
}

const TOTALS = ['totalGross', 'totalDiscount', 'totalNet', 'totalVatBase', 'totalVat', 'totalFeeSurcharge', 'totalWithholding', 'totalLiquid', 'totalLiquidNoWithholding'] as const;

/** The fields of every sales document. */
function documentFields(lines: () => Resource, lineTypeName: string, documentField: string): Field[] {
  return [
    f.string('comments'),
    f.string('contactEmail'),
    f.string('contactName'),
    f.string('contactPhone'),
    f.dateTime('creationDate'),
    f.string('currencyCode'),
    f.ref('customer', 'Customer', () => Customer, 'customerId'),
    f.uuid('customerId'),
    ...address('deliveryAddress'),
    f.decimal('discount'), // the customer's discount (percent) applied on every line
    f.dateTime('documentDate'),
    f.decimal('exchangeRate'),
    f.string('externalReference'),
    f.bool('hasEquivalenceSurcharge'),
    f.uuid('id'),
    f.children('lines', lineTypeName, lines, documentField, 'order'),
    ...address('mainAddress'),
    f.dateTime('modificationDate'),
    f.string('operationalNumber'),
    f.string('remarks'),
    f.uuid('salesDiscountGroupId'),
    f.uuid('salesTariffId'),
    f.string('socialName'),
    f.string('status'),
    ...TOTALS.map((name) => f.decimal(name)),
    f.string('vatNumber'),
    f.decimal('withholdingPercentage'), // the header's IRPF rate (null: none); each line shows what it withholds
  ];
}

/** The fields of every document line; `documentField` names the document's id (`salesQuoteId`). */
function lineFields(document: () => Resource, documentTypeName: string, documentField: string): Field[] {
  const reference = documentField.replace(/Id$/, '');
  return [
    f.uuid(documentField),
    f.ref(reference, documentTypeName, document, documentField),
    f.dateTime('creationDate'),
    f.decimal('equivalenceSurchargePercentage'),
    f.decimal('firstDiscount'),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.int('order', { column: 'line_order' }), // ORDER is reserved in SQL
    f.uuid('originId'),
    f.uuid('originLineId'),
    f.enum('originType', 'SalesLineOriginType', SalesLineOriginType),
    f.ref('product', 'Product', () => Product, 'productId'),
    f.string('productCode'),
    f.uuid('productId'),
    f.string('productName'),
    f.uuid('taxId'),
    f.uuid('taxTreatmentId'),
    f.decimal('totalDiscount'),
    f.decimal('totalGross'),
    f.decimal('totalNet'),
    f.decimal('totalQuantity'),
    f.decimal('unitPrice'),
    f.decimal('vatPercentage'),
    f.decimal('withholdingPercentage'),
  ];
}

/** Quote and order lines: what later documents have not taken yet (projections.ts derives both). */
const pendingFields = (): Field[] => [f.decimal('pendingQuantity'), f.string('status')];

interface Kind {
  document: string;
  table: string;
  root: string;
  rest: string;
  /** The line's field naming its document. */
  documentField: string;
}

function documentResource(kind: Kind, lines: () => Resource, extra: Field[]): Resource {
  return {
    typeName: kind.document,
    table: kind.table,
    scope: 'organisation',
    query: { field: kind.root, connection: `${capitalised(kind.root)}Connection` },
    rest: { path: kind.rest, displayedAs: (r) => `${r.operationalNumber ?? ''} ${r.socialName ?? ''}`.trim() },
    // Sage clients filter on the customer, the date, the status and the number (pm-041, 042; s1-021).
    indexes: [['organisation_id', 'document_date'], ['organisation_id', 'customer_id'], ['organisation_id', 'status'], ['organisation_id', 'operational_number']],
    defaultOrder: ['documentDate', 'operationalNumber'],
    fields: sorted([...documentFields(lines, `${kind.document}Line`, kind.documentField), ...extra]),
  };
}

function lineResource(kind: Kind, document: () => Resource, extra: Field[]): Resource {
  const typeName = `${kind.document}Line`;
  return {
    typeName,
    table: kind.table.replace(/s$/, '_lines'),
    scope: 'organisation',
    query: { field: `${kind.root.replace(/s$/, '')}Lines`, connection: `${capitalised(kind.root.replace(/s$/, ''))}LinesConnection` },
    // A document's lines; the lines a conversion took from (pending quantities, projections.ts); a product's lines.
    indexes: [['organisation_id', kind.documentField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)], ['organisation_id', 'origin_line_id'], ['organisation_id', 'product_code']],
    defaultOrder: [kind.documentField, 'order'],
    fields: sorted([...lineFields(document, kind.document, kind.documentField), ...extra]),
  };
}

const sorted = (fields: Field[]): Field[] => [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export const QUOTE: Kind = { document: 'SalesQuote', table: 'sales_quotes', root: 'salesQuotes', rest: '/sales_quotes', documentField: 'salesQuoteId' };
export const ORDER: Kind = { document: 'SalesOrder', table: 'sales_orders', root: 'salesOrders', rest: '/sales_orders', documentField: 'salesOrderId' };
export const DELIVERY_NOTE: Kind = { document: 'SalesDeliveryNote', table: 'sales_delivery_notes', root: 'salesDeliveryNotes', rest: '/sales_delivery_notes', documentField: 'salesDeliveryNoteId' };
export const INVOICE: Kind = { document: 'SalesInvoice', table: 'sales_invoices', root: 'salesInvoices', rest: '/sales_invoices', documentField: 'salesInvoiceId' };

export const SalesQuote: Resource = documentResource(QUOTE, () => SalesQuoteLine, [f.string('declinedReason')]);
export const SalesQuoteLine: Resource = lineResource(QUOTE, () => SalesQuote, pendingFields());
export const SalesOrder: Resource = documentResource(ORDER, () => SalesOrderLine, []);
export const SalesOrderLine: Resource = lineResource(ORDER, () => SalesOrder, pendingFields());
export const SalesDeliveryNote: Resource = documentResource(DELIVERY_NOTE, () => SalesDeliveryNoteLine, []);
export const SalesDeliveryNoteLine: Resource = lineResource(DELIVERY_NOTE, () => SalesDeliveryNote, []);

const invoice = documentResource(INVOICE, () => SalesInvoiceLine, [
  f.uuid('accountingEntryId'), // the entry that posted it (SalesInvoicePosted)
  f.enum('creditNoteReason', 'CreditNoteReason', CreditNoteReason),
  // (CreditNoteType is declared by the spec's types, with no filter input of its own: filtered as a String.)
  f.string('creditNoteType', { gql: 'CreditNoteType' }),
  f.dateTime('firstDueDate'),
  f.bool('hasCreditNote'),
  f.string('invoiceEmail'),
  f.children('openItems', 'OpenItem', () => OpenItem, 'salesInvoiceId', 'dueDate'),
  f.dateTime('operationDate'),
  f.children('paymentTermLines', 'SalesInvoicePaymentTermLine', () => SalesInvoicePaymentTermLine, 'salesInvoiceId', 'order'),
  f.string('salesOrderNumber'),
  f.ref('sourceSalesInvoice', 'SalesInvoice', () => SalesInvoice, 'sourceSalesInvoiceId'),
  f.uuid('sourceSalesInvoiceId'),
  f.string('specialMention'),
  f.enum('type', 'SalesInvoiceType', SalesInvoiceType),
]);

/** Invoices, and credit notes (type CREDIT_NOTE) listed apart in REST as Sage's other clients have them. */
export const SalesInvoice: Resource = {
  ...invoice,
  rest: [
    { ...(invoice.rest as { path: string; displayedAs: (r: Record<string, unknown>) => string }), where: { type: { neq: 'CREDIT_NOTE' } } },
    { path: '/sales_credit_notes', displayedAs: (r) => `${r.operationalNumber ?? ''} ${r.socialName ?? ''}`.trim(), where: { type: { eq: 'CREDIT_NOTE' } } },
  ],
  indexes: [...invoice.indexes!, ['organisation_id', 'source_sales_invoice_id']],
};

export const SalesInvoiceLine: Resource = lineResource(INVOICE, () => SalesInvoice, [
  f.decimal('availableForCreditNoteQuantity'),
  f.uuid('creditedLineId', { hidden: true }), // a credit note's line: the invoice line it credits
]);

/** The payment terms the invoice was created with (breadth §1.1), in the shape of a payment term's own lines. */
export const SalesInvoicePaymentTermLine: Resource = paymentTermLines('SalesInvoicePaymentTermLine', 'sales_invoice_payment_term_lines', 'salesInvoiceId');

/** One instalment of a posted invoice (Sage's OpenItem; node of salesInvoiceOpenItems and SalesInvoice.openItems). */
export const OpenItem: Resource = {
  typeName: 'OpenItem',
  table: 'sales_invoice_open_items',
  scope: 'organisation',
  query: { field: 'salesInvoiceOpenItems', connection: 'SalesInvoiceOpenItemsConnection' },
  indexes: [['organisation_id', 'sales_invoice_id'], ['organisation_id', 'due_date'], ['organisation_id', 'accounting_entry_id']],
  defaultOrder: ['dueDate'],
  fields: [
    // The entry that posted its invoice: its AccountingEntryInvoice lists the items by it.
    f.uuid('accountingEntryId', { hidden: true }),
    f.decimal('amount'),
    f.dateTime('creationDate'),
    f.dateTime('dueDate'),
    f.uuid('id'),
    f.bool('isAdvanceInvoicePayment'),
    f.dateTime('modificationDate'),
    f.decimal('paidAmountAccumulated'),
    f.ref('paymentMean', 'PaymentMean', () => PaymentMean, 'paymentMeanId'),
    f.uuid('paymentMeanId'),
    f.ref('salesInvoice', 'SalesInvoice', () => SalesInvoice, 'salesInvoiceId'),
    f.uuid('salesInvoiceId'),
    f.enum('status', 'OpenItemStatus', OpenItemStatus),
  ],
};

/**
 * Every created document has its own row (id = the document's, originId null); a conversion or a link adds a
 * row per origin (originId set; a document converted from several origins has one row for each).
 */
export const RelatedSalesDocument: Resource = {
  typeName: 'RelatedSalesDocument',
  table: 'related_sales_documents',
  scope: 'organisation',
  query: { field: 'relatedSalesDocuments', connection: 'RelatedSalesDocumentsConnection' },
  indexes: [['organisation_id', 'document_id'], ['organisation_id', 'origin_id']],
  defaultOrder: ['documentDate'],
  fields: [
    f.dateTime('documentDate'),
    f.uuid('documentId'),
    f.enum('documentType', 'RelatedSalesDocumentType', RelatedSalesDocumentType),
    f.uuid('id'),
    f.string('operationalNumber'),
    f.enum('originDocumentType', 'RelatedSalesDocumentType', RelatedSalesDocumentType),
    f.uuid('originId'),
    f.string('status'),
    f.decimal('totalLiquid'),
  ],
};

/**
 * What each settlement paid of each open item (in the invoice's currency) and on which date: its undo gives it
 * back; salesKpis' MONEY_IN sums it by date (the projection's own table, no GraphQL type).
 */
export const SalesSettlementPayment: Resource = {
  typeName: 'SalesSettlementPayment',
  table: 'sales_settlement_payments',
  scope: 'organisation',
  indexes: [['organisation_id', 'settlement_id'], ['organisation_id', 'open_item_id'], ['organisation_id', 'entry_date']],
  fields: [f.uuid('id'), f.uuid('settlementId'), f.uuid('openItemId'), f.uuid('salesInvoiceId'), f.decimal('paidAmount'), f.decimal('organisationAmount'), f.bool('undone'), f.dateTime('entryDate')],
};

export const SALES_DOCUMENTS = { QUOTE: SalesQuote, ORDER: SalesOrder, DELIVERY_NOTE: SalesDeliveryNote, INVOICE: SalesInvoice } as const;
export const SALES_LINES = { QUOTE: SalesQuoteLine, ORDER: SalesOrderLine, DELIVERY_NOTE: SalesDeliveryNoteLine, INVOICE: SalesInvoiceLine } as const;
export const SALES_KINDS = { QUOTE, ORDER, DELIVERY_NOTE, INVOICE } as const;

export const SALES_RESOURCES: Resource[] = [SalesQuote, SalesQuoteLine, SalesOrder, SalesOrderLine, SalesDeliveryNote, SalesDeliveryNoteLine, SalesInvoice, SalesInvoiceLine, SalesInvoicePaymentTermLine, OpenItem, RelatedSalesDocument];
