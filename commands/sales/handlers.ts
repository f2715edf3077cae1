/**
 * The sales documents' commands: decided against the organisation's Sales stream with its Catalog, Parties,
 * SharedSettings and Taxes streams held (products, customers, payment means), so a product or customer cannot
 * change between its check and the document's append.
 */
import { referenceId, CURRENCIES } from '../../domain/reference/countries.ts';
import { decideSales, type SalesCommand } from '../../domain/sales/documents.ts';
import type { HeaderDraft, LineDraft } from '../../domain/sales/drafts.ts';
import type { SalesDocumentKind } from '../../domain/sales/enums.ts';
import { SalesErrors } from '../../domain/sales/errors.ts';
import type { SalesEvent } from '../../domain/sales/events.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import { fail } from '../../domain/errors.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SettingsAggregate } from '../settings/aggregates.ts';
import { TaxesAggregate } from '../taxes/aggregates.ts';
import { paymentTermLines } from '../settings/inputs.ts';
import { command, defined, type CommandHandler, type DecisionContext } from '../handler.ts';
import { SalesAggregate } from './aggregates.ts';

async function decide(c: SalesCommand, state: SalesState, d: DecisionContext): Promise<SalesEvent[]> {
  const [organisation, catalog, parties, settings, taxes] = await Promise.all([d.organisation(), d.held(CatalogAggregate), d.held(PartiesAggregate), d.held(SettingsAggregate), d.held(TaxesAggregate)]);
  return decideSales(c, state, { organisation, catalog, parties, paymentMeanExists: (id) => settings.paymentMeans.has(id), salesTaxRates: [...taxes.rates.values()] });
}

// Taxes: a US/CA organisation's own sales tax rates, which no change or deletion may pull from under a line.
const HELD = [CatalogAggregate, PartiesAggregate, SettingsAggregate, TaxesAggregate];

type Sent = Record<string, any>;

/** The currency sent by id or code, as its code. */
function currencyCode(i: Sent): string | null | undefined {
  if (i.currencyCode) return i.currencyCode;
  if (!i.currencyId) return undefined;
  return CURRENCIES.find((c) => referenceId('currency', c.code) === i.currencyId)?.code ?? fail(SalesErrors.currencyUnknown, { currency: i.currencyId });
}

function headerDraft(i: Sent, d: DecisionContext): HeaderDraft {
  const { id: _i, customerId: _c, lines: _l, replaceAll: _r, updateDocumentStatus: _u, declinedReason: _d, canGeneratePaymentLink: _p, currencyId: _ci, paymentTermLines: terms, ...rest } = i;
  return defined({
    ...rest,
    currencyCode: currencyCode(i),
    paymentTermLines: terms === undefined ? undefined : terms === null ? null : paymentTermLines(terms, d.newId),
  }) as HeaderDraft;
}

const lineId = (d: DecisionContext) => (i: number) => d.newId('sales-line', i);

/** The answer of a create or update: the document and its number (null for an invoice until closed). */
function documentAnswer(events: SalesEvent[], input: { id?: string }) {
  const written = events.find((e) => e.type === 'SalesDocumentCreated' || e.type === 'SalesDocumentUpdated');
  if (written && 'document' in written.data) return { id: written.data.document.documentId, fields: { operationalNumber: written.data.document.operationalNumber } };
  return { id: input.id!, fields: { operationalNumber: null } };
}

export function createSalesDocument(kind: SalesDocumentKind, input: import('zod').ZodType): CommandHandler {
  return command({
    input: input as import('zod').ZodType<Sent>,
    aggregate: SalesAggregate,
    alsoHold: HELD,
    decide: (i, state, d) => decide({
      type: 'CreateSalesDocument', documentId: d.newId('sales-document'), newLineId: lineId(d), now: d.now,
      draft: { kind, customerId: i.customerId ?? null, header: headerDraft(i, d) as HeaderDraft & { documentDate: string }, lines: i.lines as LineDraft[] },
    }, state, d),
    answer: documentAnswer,
  });
}

export function updateSalesDocument(kind: SalesDocumentKind, input: import('zod').ZodType): CommandHandler {
  return command({
    input: input as import('zod').ZodType<Sent>,
    aggregate: SalesAggregate,
    alsoHold: HELD,
    decide: (i, state, d) => decide({
      type: 'UpdateSalesDocument', documentId: i.id, newLineId: lineId(d), now: d.now,
      draft: {
        kind, header: headerDraft(i, d), lines: (i.lines ?? null) as LineDraft[] | null, replaceLines: (i.replaceAll ?? []).includes('LINES'),
        updateDocumentStatus: i.updateDocumentStatus ?? null, declinedReason: i.declinedReason ?? null,
      },
    }, state, d),
    answer: documentAnswer,
  });
}

export function deleteSalesDocument(kind: SalesDocumentKind, input: import('zod').ZodType): CommandHandler {
  return command({
    input: input as import('zod').ZodType<{ id: string }>,
    aggregate: SalesAggregate,
    alsoHold: HELD,
    decide: (i, state, d) => decide({ type: 'DeleteSalesDocument', kind, documentId: i.id, now: d.now }, state, d),
    answer: (_, i) => ({ id: i.id }),
  });
}

const RELATED = (kind: SalesDocumentKind) => kind;

export function linkRelatedSalesDocument(input: import('zod').ZodType): CommandHandler {
  return command({
    input: input as import('zod').ZodType<{ documentId: string; originId: string }>,
    aggregate: SalesAggregate,
    alsoHold: HELD,
    decide: (i, state, d) => decide({ type: 'LinkSalesDocument', documentId: i.documentId, originId: i.originId, now: d.now }, state, d),
    answer: ([event]) => {
      const data = event.data as Extract<SalesEvent, { type: 'SalesDocumentLinked' }>['data'];
      return { id: data.documentId, fields: { documentId: data.documentId, documentType: RELATED(data.kind), originId: data.originId, originDocumentType: RELATED(data.originKind) } };
    },
  });
}
