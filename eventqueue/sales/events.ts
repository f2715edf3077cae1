/**
 * Which sales events reach trigger queues, and under which object and action: each document kind is its own
 * object (a credit note is `salesCreditNote`), the invoice's lifecycle has its own actions.
 *
 * A deletion and a close name the document by id and kind only: a deleted or closed credit note is queued as
 * `salesInvoice` (its kind), the events recording nothing more.
 */
import type { SalesDocumentKind } from '../../domain/sales/enums.ts';
import type { SalesDocument, SalesEvent } from '../../domain/sales/events.ts';
import type { Describe, EventCatalog, QueuedUnder } from '../event-catalog.ts';

const OBJECT: Record<SalesDocumentKind, string> = { QUOTE: 'salesQuote', ORDER: 'salesOrder', DELIVERY_NOTE: 'salesDeliveryNote', INVOICE: 'salesInvoice' };

const objectOf = (d: Pick<SalesDocument, 'kind' | 'invoiceType'>) => (d.invoiceType === 'CREDIT_NOTE' ? 'salesCreditNote' : OBJECT[d.kind]);

/** A document's business id: its number once it has one, else its id. */
const businessId = (d: SalesDocument) => d.operationalNumber ?? d.documentId;

const DOCUMENTS = [...Object.values(OBJECT), 'salesCreditNote'];

/** An event of any document kind: queued under its kind's object, each named for trigger filters. */
const ofDocuments = (event: string, objects: readonly string[], describe: Describe): QueuedUnder => ({ describe, under: objects.map((o) => `${o}/${event}`) });

export const SALES_EVENTS: EventCatalog<SalesEvent['type']> = {
  SalesDocumentCreated: ofDocuments('after.create', DOCUMENTS, (d) => ({ object: objectOf(d.document), event: 'after.create', key: d.document.documentId, id: businessId(d.document) })),
  SalesDocumentUpdated: ofDocuments('after.update', DOCUMENTS, (d) => ({ object: objectOf(d.document), event: 'after.update', key: d.document.documentId, id: businessId(d.document) })),
  SalesDocumentDeleted: ofDocuments('after.delete', Object.values(OBJECT), (d) => ({ object: OBJECT[d.kind as SalesDocumentKind], event: 'after.delete', key: d.documentId, id: d.documentId })),
  SalesDocumentStatusChanged: ofDocuments('after.updateStatus', Object.values(OBJECT), (d) => ({ object: OBJECT[d.kind as SalesDocumentKind], event: 'after.updateStatus', key: d.documentId, id: d.documentId })),
  SalesDocumentLinked: ofDocuments('after.link', Object.values(OBJECT), (d) => ({ object: OBJECT[d.kind as SalesDocumentKind], event: 'after.link', key: d.documentId, id: d.documentId })),
  SalesInvoiceClosed: (d) => ({ object: 'salesInvoice', event: 'after.close', key: d.invoiceId, id: d.number?.operationalNumber }),
  SalesInvoicePosted: (d) => ({ object: 'salesInvoice', event: 'after.post', key: d.invoiceId, id: d.invoiceId }),
  // A settlement is known to clients by its payment entry (salesOpenItemSettlement answers accountingEntryId).
  SalesOpenItemsSettled: (d) => ({ object: 'salesOpenItemSettlement', event: 'after.create', key: d.entryId, id: String(d.entryNumber) }),
  SalesSettlementUndone: (d) => ({ object: 'salesOpenItemSettlement', event: 'after.delete', key: d.entryId, id: d.entryId }),
};
