/**
 * The invoice lifecycle's commands on the organisation's Sales stream: closeSalesInvoice numbers the invoice
 * (the number decided in the append, so racing closes cannot share one), generateCreditNote writes a credit
 * note against what the invoice's earlier credit notes left (with Parties held: the customer's country
 * decides the lines' tax treatment as it did on the invoice).
 */
import type { z } from 'zod';
import { decideGenerateCreditNote } from '../../domain/sales/credit-notes.ts';
import { decideCloseSalesInvoice } from '../../domain/sales/lifecycle.ts';
import type { SalesEvent } from '../../domain/sales/events.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { command, type CommandHandler } from '../handler.ts';
import { SalesAggregate } from './aggregates.ts';
import type { CloseSalesInvoiceInput, GenerateCreditNoteInput } from './lifecycle-inputs.ts';

export function closeSalesInvoice(input: typeof CloseSalesInvoiceInput): CommandHandler {
  return command({
    input: input as z.ZodType<z.output<typeof CloseSalesInvoiceInput>>,
    aggregate: SalesAggregate,
    decide: (i, state, d) => decideCloseSalesInvoice(state, i.salesInvoiceId, d.now),
    answer: (events, i) => {
      const closed = events[0] as Extract<SalesEvent, { type: 'SalesInvoiceClosed' }>;
      return { id: i.salesInvoiceId, fields: { operationalNumber: closed.data.number.operationalNumber } };
    },
  });
}

export function generateCreditNote(input: typeof GenerateCreditNoteInput): CommandHandler {
  return command({
    input: input as z.ZodType<z.output<typeof GenerateCreditNoteInput>>,
    aggregate: SalesAggregate,
    alsoHold: [PartiesAggregate],
    decide: async (i, state, d) => {
      const [organisation, parties] = await Promise.all([d.organisation(), d.held(PartiesAggregate)]);
      return decideGenerateCreditNote({
        creditNoteId: d.newId('sales-document'), newLineId: (n) => d.newId('sales-line', n), now: d.now,
        draft: {
          sourceInvoiceId: i.id,
          lines: i.lines ? i.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, unitPrice: l.unitPrice ?? null })) : null,
          creditNoteReason: i.creditNoteReason ?? null, creditNoteType: i.creditNoteType ?? null,
          documentDate: i.outputDocumentDate ?? d.now.slice(0, 10),
        },
      }, state, { organisation, parties });
    },
    // The credit note has no number until closed (series CN): the spec's answer is its id alone.
    answer: (events) => ({ id: (events[0] as Extract<SalesEvent, { type: 'SalesDocumentCreated' }>).data.document.documentId }),
  });
}
