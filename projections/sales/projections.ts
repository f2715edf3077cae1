/**
 * Projection of the Sales aggregate's events into the documents' read models. A document event carries the
 * document whole: its row and lines are written as recorded. What depends on other documents (pending
 * quantities and line statuses, what may still be credited, hasCreditNote, open items paid) is recomputed in
 * SQL from the rows the later documents hold, so a rebuild (whose batches share nothing) gives the same answers.
 */
import { derivedId } from '../../domain/ids.ts';
import { Decimal } from '../../domain/money.ts';
import type { RelatedSalesDocumentType, SalesDocumentKind } from '../../domain/sales/enums.ts';
import { SALES_EVENT_TYPES, type SalesAddress, type SalesDocument, type SalesEvent } from '../../domain/sales/events.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { projectionsOf, type Projection, type TableOf } from '../engine/projection.ts';
import { columnOf, type Resource } from '../engine/resource.ts';
import type { Writes } from '../engine/writes.ts';
import { OpenItem, RelatedSalesDocument, SALES_DOCUMENTS, SALES_KINDS, SALES_LINES, SALES_RESOURCES, SalesInvoice, SalesInvoiceLine, SalesInvoicePaymentTermLine, SalesOrderLine, SalesQuoteLine, SalesSettlementPayment } from './read-models.ts';

type Row = Record<string, unknown>;

const addressColumns = (name: string, a: SalesAddress | null): Row =>
  Object.fromEntries(Object.entries(a ?? {}).map(([part, value]) => [`${name}${part[0].toUpperCase()}${part.slice(1)}`, value]));

/** The type a document has among related documents: a credit note and an advance invoice are invoices of a type. */
function relatedType(d: Pick<SalesDocument, 'kind' | 'invoiceType'>): RelatedSalesDocumentType {
  if (d.kind !== 'INVOICE') return d.kind;
  return d.invoiceType === 'CREDIT_NOTE' ? 'CREDIT_NOTE' : d.invoiceType === 'PAYMENT_IN_ADVANCE' ? 'ADVANCE_INVOICE' : 'INVOICE';
}

/** The document's own fields as recorded (not its status, number of a close, or what other documents derive). */
function documentRow(d: SalesDocument): Row {
  const h = d.header;
  const row: Row = {
    id: d.documentId,
    customerId: h.customerId,
    documentDate: h.documentDate,
    operationalNumber: d.operationalNumber,
    socialName: h.socialName,
    vatNumber: h.vatNumber,
    contactName: h.contactName,
    contactPhone: h.contactPhone,
    contactEmail: h.contactEmail,
    comments: h.comments,
    remarks: h.remarks,
    externalReference: h.externalReference,
    hasEquivalenceSurcharge: h.hasEquivalenceSurcharge,
    discount: h.customerDiscount,
    salesTariffId: h.salesTariffId,
    salesDiscountGroupId: h.salesDiscountGroupId,
    withholdingPercentage: h.withholdingPercentage,
    currencyCode: h.currencyCode,
    exchangeRate: h.exchangeRate,
    ...d.amounts.totals,
    ...addressColumns('mainAddress', h.mainAddress),
    ...addressColumns('deliveryAddress', h.deliveryAddress),
  };
  if (d.kind === 'INVOICE') {
    Object.assign(row, {
      type: d.invoiceType,
      operationDate: h.operationDate,
      salesOrderNumber: h.salesOrderNumber,
      invoiceEmail: h.invoiceEmail,
      specialMention: h.specialMention,
      sourceSalesInvoiceId: d.sourceInvoiceId,
      creditNoteReason: d.creditNoteReason,
      creditNoteType: d.creditNoteType,
    });
  }
  return row;
}

function lineRows(d: SalesDocument, organisationId: string, at: string): Row[] {
  const documentField = SALES_KINDS[d.kind].documentField;
  const isCreditNote = d.invoiceType === 'CREDIT_NOTE';
  return d.lines.map((l) => ({
    organisationId,
    id: l.lineId,
    [documentField]: d.documentId,
    order: l.order,
    productId: l.productId,
    productCode: l.productCode,
    productName: l.productName,
    totalQuantity: l.totalQuantity,
    unitPrice: l.unitPrice,
    firstDiscount: l.firstDiscount,
    taxId: l.taxId,
    taxTreatmentId: l.taxTreatmentId,
    vatPercentage: l.vatPercentage,
    equivalenceSurchargePercentage: l.equivalenceSurchargePercentage,
    withholdingPercentage: l.withholdingPercentage,
    totalGross: l.totalGross,
    totalDiscount: l.totalDiscount,
    totalNet: l.totalNet,
    originType: l.origin?.originType ?? null,
    originId: l.origin?.originId ?? null,
    originLineId: l.origin?.originLineId ?? null,
    creditedLineId: l.creditedLineId,
    // Nothing has taken from a new line yet (refreshPending corrects it when something already names it); never below zero, as state.ts.
    pendingQuantity: new Decimal(l.totalQuantity).isNeg() ? '0' : l.totalQuantity,
    status: 'Pending',
    availableForCreditNoteQuantity: d.kind === 'INVOICE' && !isCreditNote ? l.totalQuantity : null,
    creationDate: at,
    modificationDate: at,
  }));
}

/** An invoice's payment term lines as recorded; ids derived from the invoice's (a customer's term lines are copied to many invoices). */
function paymentTermRows(d: SalesDocument, organisationId: string, at: string): Row[] {
  if (d.kind !== 'INVOICE') return [];
  return d.header.paymentTermLines.map((l, i) => ({
    organisationId, id: derivedId(d.documentId, 'payment-term-line', String(i)), salesInvoiceId: d.documentId, order: l.order, condition: l.condition,
    day: l.day, payDaysList: l.payDays.join(','), type: l.type, value: l.value, paymentMeanId: l.paymentMeanId, creationDate: at, modificationDate: at,
  }));
}

/** Zero at the scale of `amount` (decimal text): what nothing paid of it reads as ('0.00' of '121.00'). */
const zeroAtScaleOf = (amount: string) => new Decimal(0).toFixed(amount.split('.')[1]?.length ?? 0);

/** One related-documents row per origin (its lines' origins, a credit note's invoice), or one without origin. */
function relatedRows(d: SalesDocument, organisationId: string): Row[] {
  const origins = originsOfDocument(d);
  const own = { organisationId, documentId: d.documentId, documentType: relatedType(d), operationalNumber: d.operationalNumber, documentDate: d.header.documentDate, status: 'Pending', totalLiquid: d.amounts.totals.totalLiquid };
  if (origins.size === 0) return [{ ...own, id: d.documentId, originId: null, originDocumentType: null }];
  return [...origins].map(([originId, originType], i) => ({ ...own, id: i === 0 ? d.documentId : derivedId(d.documentId, 'related', originId), originId, originDocumentType: originType }));
}

const col = (r: Resource, field: string) => columnOf(r, field);

/** The line tables whose lines take quantities from earlier documents' lines. */
const TAKERS = [SALES_LINES.ORDER, SALES_LINES.DELIVERY_NOTE, SALES_LINES.INVOICE];
/** Lines with a pending quantity and a status, with their documents. */
const PENDING = [
  { lines: SalesQuoteLine, documents: SALES_DOCUMENTS.QUOTE, documentField: SALES_KINDS.QUOTE.documentField },
  { lines: SalesOrderLine, documents: SALES_DOCUMENTS.ORDER, documentField: SALES_KINDS.ORDER.documentField },
];

/**
 * Recomputes the pending quantity and status of the quote and order lines of the documents `targets` selects
 * (SQL over $1 the organisation, $2 the document changed), from every later line naming them as origin; with
 * `excluding`, the changed document's own lines count for nothing (they are about to go).
 */
function refreshPending(w: Writes, t: TableOf, organisationId: string, documentId: string, targets: string, excluding: boolean): void {
  const taken = TAKERS.map((r) => {
    const document = col(r, SALES_KINDS[kindOfLines(r)].documentField);
    return `SELECT origin_line_id, total_quantity FROM ${t(r)} WHERE organisation_id = $1 AND origin_line_id IS NOT NULL${excluding ? ` AND ${document} <> $2` : ''}`;
  }).join(' UNION ALL ');
  for (const { lines, documents, documentField } of PENDING) {
    const document = col(lines, documentField);
    w.sql(
      // As domain/sales/state.ts pendingQuantity and lineStatus: never below zero; nothing (or less) taken is Pending.
      `UPDATE ${t(lines)} l SET pending_quantity = greatest(l.total_quantity - x.taken, 0),
         status = CASE WHEN x.declined THEN 'Declined' WHEN x.taken <= 0 THEN 'Pending' WHEN l.total_quantity - x.taken <= 0 THEN 'Completed' ELSE 'Partial' END
       FROM (SELECT l2.id, (SELECT coalesce(sum(c.total_quantity), 0) FROM (${taken}) c WHERE c.origin_line_id = l2.id) AS taken,
               EXISTS (SELECT 1 FROM ${t(documents)} d WHERE d.organisation_id = $1 AND d.id = l2.${document} AND d.status = 'Declined') AS declined
             FROM ${t(lines)} l2 WHERE l2.organisation_id = $1 AND l2.${document} IN (${targets})) x
       WHERE l.organisation_id = $1 AND l.id = x.id`,
      [organisationId, documentId],
      [{ resource: lines, table: t(lines), fields: ['organisationId', documentField] }, ...TAKERS.map((r) => ({ resource: r, table: t(r), fields: ['organisationId', 'originLineId'] }))],
    );
  }
}

function kindOfLines(r: Resource): SalesDocumentKind {
  return (Object.keys(SALES_LINES) as SalesDocumentKind[]).find((k) => SALES_LINES[k] === r)!;
}

/** The documents a document's lines take from: $2's lines in the table of its kind. */
const originsOf = (t: TableOf, kind: SalesDocumentKind) => `SELECT origin_id FROM ${t(SALES_LINES[kind])} WHERE organisation_id = $1 AND ${col(SALES_LINES[kind], SALES_KINDS[kind].documentField)} = $2`;

/** The invoice a credit note ($2) credits. */
const creditedBy = (t: TableOf) => `SELECT source_sales_invoice_id FROM ${t(SalesInvoice)} WHERE organisation_id = $1 AND id = $2 AND source_sales_invoice_id IS NOT NULL`;

/**
 * What the invoices `source` selects (by default the one a credit note $2 credits) may still be credited, and
 * whether they have a credit note; with `excluding`, as if $2 were gone.
 */
function refreshCredited(w: Writes, t: TableOf, organisationId: string, documentId: string, excluding: boolean, source = creditedBy(t)): void {
  const lines = t(SalesInvoiceLine);
  const invoices = t(SalesInvoice);
  w.sql(
    `UPDATE ${lines} l SET available_for_credit_note_quantity = l.total_quantity - coalesce((SELECT sum(abs(c.total_quantity)) FROM ${lines} c
       WHERE c.organisation_id = $1 AND c.credited_line_id = l.id${excluding ? ' AND c.sales_invoice_id <> $2' : ''}), 0)
     WHERE l.organisation_id = $1 AND l.sales_invoice_id IN (${source})`,
    [organisationId, documentId],
    { resource: SalesInvoiceLine, table: lines, fields: ['organisationId', 'salesInvoiceId'] },
  );
  w.sql(
    `UPDATE ${invoices} i SET has_credit_note = EXISTS (SELECT 1 FROM ${invoices} c WHERE c.organisation_id = $1 AND c.source_sales_invoice_id = i.id AND c.type = 'CREDIT_NOTE'${excluding ? ' AND c.id <> $2' : ''})
     WHERE i.organisation_id = $1 AND i.id IN (${source})`,
    [organisationId, documentId],
    { resource: SalesInvoice, table: invoices, fields: ['organisationId', 'sourceSalesInvoiceId'] },
  );
}

/**
 * One more origin of a document among related documents: its own row takes the origin if it has none yet;
 * otherwise the origin is one more row (a copy of the own row), unless it has one already.
 */
function relate(w: Writes, t: TableOf, organisationId: string, documentId: string, originId: string, originType: RelatedSalesDocumentType): void {
  const related = t(RelatedSalesDocument);
  w.sql(
    `INSERT INTO ${related} (${['organisation_id', 'id', 'document_id', 'document_type', 'operational_number', 'document_date', 'status', 'total_liquid', 'origin_id', 'origin_document_type'].join(', ')})
     SELECT organisation_id, $3, document_id, document_type, operational_number, document_date, status, total_liquid, $4, $5 FROM ${related}
     WHERE organisation_id = $1 AND id = $2 AND origin_id IS NOT NULL AND origin_id <> $4
       AND NOT EXISTS (SELECT 1 FROM ${related} WHERE organisation_id = $1 AND document_id = $2 AND origin_id = $4)`,
    [organisationId, documentId, derivedId(documentId, 'related', originId), originId, originType],
    { resource: RelatedSalesDocument, table: related, fields: ['organisationId', 'documentId'] },
  );
  w.sql(`UPDATE ${related} SET origin_id = $3, origin_document_type = $4 WHERE organisation_id = $1 AND id = $2 AND origin_id IS NULL`, [organisationId, documentId, originId, originType], {
    resource: RelatedSalesDocument,
    table: related,
    fields: ['id'],
  });
}

/** The origins a document's lines (and a credit note's invoice) give it among related documents, in order. */
function originsOfDocument(d: SalesDocument): Map<string, RelatedSalesDocumentType> {
  const origins = new Map<string, RelatedSalesDocumentType>();
  for (const l of d.lines) if (l.origin && !origins.has(l.origin.originId)) origins.set(l.origin.originId, l.origin.originType);
  if (d.sourceInvoiceId) origins.set(d.sourceInvoiceId, 'INVOICE');
  return origins;
}

/**
 * Before an update replaces a document's lines: the related rows of the origins its lines (and a credit note's
 * invoice) gave it go, those a link (SalesDocumentLinked) added stay. The own row keeps its id and takes the
 * origin of a linked row if it loses its own (none when nothing is left), as when the links come after creation.
 */
function unrelateLines(w: Writes, t: TableOf, organisationId: string, kind: SalesDocumentKind, documentId: string): void {
  const related = t(RelatedSalesDocument);
  const old = `${originsOf(t, kind)}${kind === 'INVOICE' ? ` UNION ${creditedBy(t)}` : ''}`;
  const lookup = { resource: RelatedSalesDocument, table: related, fields: ['organisationId', 'documentId'] };
  w.sql(`DELETE FROM ${related} WHERE organisation_id = $1 AND document_id = $2 AND id <> $2 AND origin_id IN (${old})`, [organisationId, documentId], [lookup, { resource: SALES_LINES[kind], table: t(SALES_LINES[kind]), fields: ['organisationId', SALES_KINDS[kind].documentField] }]);
  const linked = (column: string) => `(SELECT ${column} FROM ${related} WHERE organisation_id = $1 AND document_id = $2 AND id <> $2 ORDER BY origin_id LIMIT 1)`;
  w.sql(
    `UPDATE ${related} SET origin_id = ${linked('origin_id')}, origin_document_type = ${linked('origin_document_type')} WHERE organisation_id = $1 AND id = $2 AND origin_id IN (${old})`,
    [organisationId, documentId],
    [{ resource: RelatedSalesDocument, table: related, fields: ['id'] }, lookup],
  );
  w.sql(
    `DELETE FROM ${related} WHERE organisation_id = $1 AND document_id = $2 AND id <> $2 AND origin_id = (SELECT origin_id FROM ${related} WHERE organisation_id = $1 AND id = $2)`,
    [organisationId, documentId],
    [lookup, { resource: RelatedSalesDocument, table: related, fields: ['id'] }],
  );
}

/** The document's status and number as related documents show them. */
function syncRelated(w: Writes, t: TableOf, organisationId: string, documentId: string, set: Row): void {
  w.update(RelatedSalesDocument, t(RelatedSalesDocument), { organisationId, documentId }, set);
}

/**
 * A settlement ($2) paid or given back: its open items' paid amounts and statuses, then their invoices' statuses
 * (Collected when every item is, PartiallyCollected when something is paid, else Posted), from the payments kept.
 */
function refreshCollection(w: Writes, t: TableOf, organisationId: string, settlementId: string): void {
  const payments = t(SalesSettlementPayment);
  const items = t(OpenItem);
  const invoices = t(SalesInvoice);
  const touched = (column: string) => `SELECT ${column} FROM ${payments} WHERE organisation_id = $1 AND settlement_id = $2`;
  w.sql(
    // At the item's amount's scale (its currency's): nothing paid, or all given back, reads '0.00', not '0'.
    `UPDATE ${items} o SET paid_amount_accumulated = round(x.paid, scale(o.amount)),
       status = CASE WHEN x.paid = 0 THEN 'NOT_SPECIFIED' WHEN abs(x.paid) >= abs(o.amount) THEN 'COLLECTED' ELSE 'PARTIAL' END
     FROM (SELECT open_item_id, sum(CASE WHEN undone THEN 0 ELSE paid_amount END) AS paid FROM ${payments}
           WHERE organisation_id = $1 AND open_item_id IN (${touched('open_item_id')}) GROUP BY open_item_id) x
     WHERE o.organisation_id = $1 AND o.id = x.open_item_id`,
    [organisationId, settlementId],
    [{ resource: SalesSettlementPayment, table: payments, fields: ['organisationId', 'settlementId'] }, { resource: OpenItem, table: items, fields: ['id'] }],
  );
  w.sql(
    `UPDATE ${invoices} i SET status = CASE
         WHEN bool_and_collected THEN 'Collected' WHEN any_paid THEN 'PartiallyCollected' ELSE 'Posted' END
     FROM (SELECT sales_invoice_id, bool_and(status = 'COLLECTED') AS bool_and_collected, bool_or(paid_amount_accumulated <> 0) AS any_paid
           FROM ${items} WHERE organisation_id = $1 AND sales_invoice_id IN (${touched('sales_invoice_id')}) GROUP BY sales_invoice_id) x
     WHERE i.organisation_id = $1 AND i.id = x.sales_invoice_id`,
    [organisationId, settlementId],
    { resource: OpenItem, table: items, fields: ['organisationId', 'salesInvoiceId'] },
  );
  const related = t(RelatedSalesDocument);
  w.sql(
    `UPDATE ${related} r SET status = i.status FROM ${invoices} i
     WHERE r.organisation_id = $1 AND i.organisation_id = $1 AND r.document_id = i.id AND i.id IN (${touched('sales_invoice_id')})`,
    [organisationId, settlementId],
    { resource: RelatedSalesDocument, table: related, fields: ['organisationId', 'documentId'] },
  );
}

function apply(event: RecordedEvent, w: Writes, t: TableOf): void {
  const organisationId = event.metadata.organisationId as string;
  const e = { type: event.type, data: event.data } as SalesEvent;
  switch (e.type) {
    case 'SalesDocumentCreated': {
      const { document: d, at } = e.data;
      const documents = SALES_DOCUMENTS[d.kind];
      w.insert(documents, t(documents), { ...documentRow(d), organisationId, status: 'Pending', hasCreditNote: false, creationDate: at, modificationDate: at });
      for (const line of lineRows(d, organisationId, at)) w.insert(SALES_LINES[d.kind], t(SALES_LINES[d.kind]), line);
      for (const row of relatedRows(d, organisationId)) w.insert(RelatedSalesDocument, t(RelatedSalesDocument), row);
      for (const row of paymentTermRows(d, organisationId, at)) w.insert(SalesInvoicePaymentTermLine, t(SalesInvoicePaymentTermLine), row);
      refreshPending(w, t, organisationId, d.documentId, originsOf(t, d.kind), false);
      if (d.invoiceType === 'CREDIT_NOTE') refreshCredited(w, t, organisationId, d.documentId, false);
      return;
    }
    case 'SalesDocumentUpdated': {
      const { document: d, at } = e.data;
      const documents = SALES_DOCUMENTS[d.kind];
      const lines = SALES_LINES[d.kind];
      // The lines as they now stand replace the old ones: what the old ones took is given back first.
      refreshPending(w, t, organisationId, d.documentId, originsOf(t, d.kind), true);
      if (d.invoiceType === 'CREDIT_NOTE') refreshCredited(w, t, organisationId, d.documentId, true);
      unrelateLines(w, t, organisationId, d.kind, d.documentId);
      w.delete(lines, t(lines), { organisationId, [SALES_KINDS[d.kind].documentField]: d.documentId });
      for (const line of lineRows(d, organisationId, at)) w.insert(lines, t(lines), line);
      if (d.kind === 'INVOICE') {
        w.delete(SalesInvoicePaymentTermLine, t(SalesInvoicePaymentTermLine), { organisationId, salesInvoiceId: d.documentId });
        for (const row of paymentTermRows(d, organisationId, at)) w.insert(SalesInvoicePaymentTermLine, t(SalesInvoicePaymentTermLine), row);
      }
      w.update(documents, t(documents), { organisationId, id: d.documentId }, { ...documentRow(d), modificationDate: at });
      syncRelated(w, t, organisationId, d.documentId, { operationalNumber: d.operationalNumber, documentDate: d.header.documentDate, totalLiquid: d.amounts.totals.totalLiquid });
      for (const [originId, originType] of originsOfDocument(d)) relate(w, t, organisationId, d.documentId, originId, originType);
      // Its origins' lines take what the new lines take; its own new lines owe what later documents took of them.
      refreshPending(w, t, organisationId, d.documentId, `${originsOf(t, d.kind)} UNION SELECT $2::uuid`, false);
      if (d.invoiceType === 'CREDIT_NOTE') refreshCredited(w, t, organisationId, d.documentId, false);
      else if (d.kind === 'INVOICE') refreshCredited(w, t, organisationId, d.documentId, false, 'SELECT $2::uuid');
      return;
    }
    case 'SalesDocumentDeleted': {
      const { documentId, kind } = e.data;
      const lines = SALES_LINES[kind];
      refreshPending(w, t, organisationId, documentId, originsOf(t, kind), true);
      if (kind === 'INVOICE') refreshCredited(w, t, organisationId, documentId, true);
      if (kind === 'INVOICE') w.delete(SalesInvoicePaymentTermLine, t(SalesInvoicePaymentTermLine), { organisationId, salesInvoiceId: documentId });
      w.delete(lines, t(lines), { organisationId, [SALES_KINDS[kind].documentField]: documentId });
      w.delete(SALES_DOCUMENTS[kind], t(SALES_DOCUMENTS[kind]), { organisationId, id: documentId });
      w.delete(RelatedSalesDocument, t(RelatedSalesDocument), { organisationId, documentId });
      return;
    }
    case 'SalesDocumentStatusChanged': {
      const { documentId, kind, status, declinedReason, at } = e.data;
      const documents = SALES_DOCUMENTS[kind];
      w.update(documents, t(documents), { organisationId, id: documentId }, { status, modificationDate: at, ...(kind === 'QUOTE' ? { declinedReason } : {}) });
      syncRelated(w, t, organisationId, documentId, { status });
      // A declined quote's lines are Declined; back to pending, they are what conversions left of them again.
      refreshPending(w, t, organisationId, documentId, 'SELECT $2::uuid', false);
      return;
    }
    case 'SalesDocumentLinked': {
      const { documentId, originId, originKind } = e.data;
      relate(w, t, organisationId, documentId, originId, originKind);
      return;
    }
    case 'SalesInvoiceClosed': {
      const { invoiceId, number, at } = e.data;
      w.update(SalesInvoice, t(SalesInvoice), { organisationId, id: invoiceId }, { status: 'Closed', operationalNumber: number.operationalNumber, modificationDate: at });
      syncRelated(w, t, organisationId, invoiceId, { status: 'Closed', operationalNumber: number.operationalNumber });
      return;
    }
    case 'SalesInvoicePosted': {
      const { invoiceId, entryId, openItems, at } = e.data;
      const firstDueDate = openItems.map((o) => o.dueDate).sort()[0] ?? null;
      w.update(SalesInvoice, t(SalesInvoice), { organisationId, id: invoiceId }, { status: 'Posted', accountingEntryId: entryId, firstDueDate, modificationDate: at });
      for (const o of openItems) {
        w.insert(OpenItem, t(OpenItem), {
          organisationId, id: o.openItemId, salesInvoiceId: invoiceId, accountingEntryId: entryId, dueDate: o.dueDate, amount: o.amount, paymentMeanId: o.paymentMeanId,
          paidAmountAccumulated: zeroAtScaleOf(o.amount), status: 'NOT_SPECIFIED', isAdvanceInvoicePayment: false, creationDate: at, modificationDate: at,
        });
      }
      syncRelated(w, t, organisationId, invoiceId, { status: 'Posted' });
      return;
    }
    case 'SalesOpenItemsSettled': {
      const { settlementId, payments, entryDate } = e.data;
      for (const p of payments) {
        w.insert(SalesSettlementPayment, t(SalesSettlementPayment), {
          organisationId, id: derivedId(settlementId, 'payment', p.openItemId), settlementId, openItemId: p.openItemId, salesInvoiceId: p.invoiceId, paidAmount: p.paidAmount,
          organisationAmount: p.organisationAmount ?? null, undone: false, entryDate,
        });
      }
      refreshCollection(w, t, organisationId, settlementId);
      return;
    }
    case 'SalesSettlementUndone': {
      const { settlementId } = e.data;
      w.update(SalesSettlementPayment, t(SalesSettlementPayment), { organisationId, settlementId }, { undone: true });
      refreshCollection(w, t, organisationId, settlementId);
      return;
    }
  }
}

export const salesProjection: Projection = {
  name: 'sales',
  resources: [...SALES_RESOURCES, SalesSettlementPayment],
  // 1: an updated document's own pending quantities and related rows kept right, pending never below zero (issue 18).
  // 2: an open item's paidAmountAccumulated at its amount's scale ('0.00', not '0', when nothing is paid).
  revision: 2,
  eventTypes: SALES_EVENT_TYPES,
  apply,
};

export const PROJECTIONS = projectionsOf(import.meta.url, [salesProjection]);
export const SALES_PROJECTIONS = PROJECTIONS;
