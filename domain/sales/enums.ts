/**
 * The sales area's enumerations, each once, with Sage Active's values (sage-names.md §4.1; breadth §1.1, §2).
 * Document and line statuses are Strings in Sage (filtered with quoted values), not GraphQL enums: they are
 * const arrays here so the deciders and read models share one spelling.
 */

/** The four kinds of sales document; a credit note is an invoice of type CREDIT_NOTE. */
export const SalesDocumentKind = ['QUOTE', 'ORDER', 'DELIVERY_NOTE', 'INVOICE'] as const;
export type SalesDocumentKind = (typeof SalesDocumentKind)[number];

/** Spec enum: a document's type in relatedSalesDocuments and linkRelatedSalesDocument's answer. */
export const RelatedSalesDocumentType = ['NONE', 'ADVANCE_INVOICE', 'CREDIT_NOTE', 'DELIVERY_NOTE', 'INVOICE', 'ORDER', 'QUOTE', 'SALES_INVOICE_TEMPLATE'] as const;
export type RelatedSalesDocumentType = (typeof RelatedSalesDocumentType)[number];

/** What a converted line comes from (Sage's line originType: QUOTE, ORDER, DELIVERY_NOTE; not OriginType). */
export const SalesLineOriginType = ['QUOTE', 'ORDER', 'DELIVERY_NOTE'] as const;
export type SalesLineOriginType = (typeof SalesLineOriginType)[number];

/** Sage's salesInvoices.type. */
export const SalesInvoiceType = ['NONE', 'CREDIT_NOTE', 'NORMAL', 'PAYMENT_IN_ADVANCE'] as const;
export type SalesInvoiceType = (typeof SalesInvoiceType)[number];

/** Sage's openItems.status. */
export const OpenItemStatus = ['NOT_SPECIFIED', 'COLLECTED', 'PAID', 'PARTIAL'] as const;
export type OpenItemStatus = (typeof OpenItemStatus)[number];

/** Sage's SalesIndicatorType (salesKpis input). */
export const SalesIndicatorType = ['MONEY_IN', 'MONEY_OUT', 'QUOTES_WITH_RELATED_DOCUMENTS', 'TOTAL_CUSTOMERS', 'TOTAL_FROM_OPEN_QUOTES'] as const;
export type SalesIndicatorType = (typeof SalesIndicatorType)[number];

/**
 * updateDocumentStatus of a quote, order or delivery note update. S1 gives two spellings for quotes
 * (PENDING DECLINED CLOSE; CANCEL_DECLINE DECLINE CLOSE): both are accepted, the second being the update-status page's.
 */
export const UpdateDocumentStatus = ['PENDING', 'DECLINED', 'CANCEL_DECLINE', 'DECLINE', 'CLOSE'] as const;
export type UpdateDocumentStatus = (typeof UpdateDocumentStatus)[number];

/** Document statuses (Strings): quote Pending/Closed/Declined; order and delivery note Pending/Closed; invoice below. */
export const SalesDocumentStatus = ['Pending', 'Closed', 'Declined', 'Posted', 'PartiallyCollected', 'Collected'] as const;
export type SalesDocumentStatus = (typeof SalesDocumentStatus)[number];

/** Line statuses (Strings) of quotes and orders: what conversions have taken of the line. */
export const SalesLineStatus = ['Pending', 'Partial', 'Completed', 'Declined'] as const;
export type SalesLineStatus = (typeof SalesLineStatus)[number];

/** A credit note's kind (spec enum CreditNoteType, declared in api/graphql/spec-types.graphql). */
export const CreditNoteType = ['UNDEFINED', 'BY_DIFFERENCES', 'SUBSTITUTIVE'] as const;
export type CreditNoteType = (typeof CreditNoteType)[number];

/** Which kinds a line may be converted from into which (Sage's allowed paths). */
export const ALLOWED_CONVERSIONS: Readonly<Record<SalesDocumentKind, readonly SalesLineOriginType[]>> = {
  QUOTE: [],
  ORDER: ['QUOTE'],
  DELIVERY_NOTE: ['QUOTE', 'ORDER'],
  INVOICE: ['QUOTE', 'ORDER', 'DELIVERY_NOTE'],
};

/** GraphQL enums of the area (the statuses are Strings, as Sage has them). */
export const SALES_ENUMS = { RelatedSalesDocumentType, SalesLineOriginType, SalesInvoiceType, OpenItemStatus, SalesIndicatorType, UpdateDocumentStatus } as const;
