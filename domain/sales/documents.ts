/**
 * The sales documents' decider (pure): create, update (patch style) and delete a quote, order, delivery
 * note or invoice; change a document's status; link an existing pair. Every rule that spans documents is
 * decided here against the organisation's Sales state: numbers, conversions and their pending quantities,
 * an origin closing when its lines are all taken (and open again when what took them is deleted).
 */
import { Decimal } from '../money.ts';
import { Errors, Reasons, fail } from '../errors.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import type { CatalogState } from '../catalog/products.ts';
import type { PartiesState } from '../parties/parties.ts';
import { CURRENCIES } from '../reference/countries.ts';
import { decidePaymentTermLines } from '../settings/payment-terms.ts';
import { ALLOWED_CONVERSIONS, type SalesDocumentKind, type SalesDocumentStatus, type UpdateDocumentStatus } from './enums.ts';
import { SalesErrors } from './errors.ts';
import type { SalesDocument, SalesEvent, SalesHeader } from './events.ts';
import type { CreateDraft, HeaderDraft, UpdateDraft } from './drafts.ts';
import { newLines, patchedLines, repricedLines, specOf, type DocumentCurrency, type LineSpec } from './lines.ts';
import type { SalesTaxRateInForce } from '../taxes/catalogue/types.ts';
import { documentPricing } from './line-prices.ts';
import { headerPriceLists, pricingTermsChanged } from './header-price-lists.ts';
import { priced } from './amounts.ts';
import { checkCreditNote } from './credit-notes.ts';
import { checkTakes } from './takes.ts';
import { seriesAtCreation, takeNumber } from './numbering.ts';
import { allLinesTaken, evolveSales, type KeptDocument, type SalesState } from './state.ts';

export interface SalesFacts {
  organisation: OrganisationState;
  catalog: CatalogState;
  parties: PartiesState;
  paymentMeanExists(id: string): boolean;
  /** US/CA: the organisation's own sales tax rates (the Taxes stream). */
  salesTaxRates?: readonly SalesTaxRateInForce[];
}

export type SalesCommand =
  | { type: 'CreateSalesDocument'; documentId: string; draft: CreateDraft; newLineId(i: number): string; now: string }
  | { type: 'UpdateSalesDocument'; documentId: string; draft: UpdateDraft; newLineId(i: number): string; now: string }
  | { type: 'DeleteSalesDocument'; kind: SalesDocumentKind; documentId: string; now: string }
  | { type: 'LinkSalesDocument'; documentId: string; originId: string; now: string };

function customerOf(facts: SalesFacts, kind: SalesDocumentKind, customerId: string | null) {
  if (!customerId) {
    if (kind !== 'QUOTE') fail(SalesErrors.customerRequired);
    return null;
  }
  const party = facts.parties.parties.get(customerId);
  if (!party || party.kind !== 'customer') return fail(SalesErrors.customerNotFound, { id: customerId });
  if (party.disabled) fail(SalesErrors.customerDisabled, { code: party.code });
  const terms = party.terms;
  const blocked = (kind === 'ORDER' && terms?.blockOrderEnabled) || (kind === 'DELIVERY_NOTE' && terms?.blockDeliveryNoteEnabled) || (kind === 'INVOICE' && terms?.blockInvoiceEnabled);
  if (blocked) fail(SalesErrors.customerBlocked, { code: party.code, kind });
  return party;
}

function currencyOf(organisation: OrganisationState, draft: HeaderDraft, previous: SalesHeader | null): { currencyCode: string; exchangeRate: string; precision: number } {
  const base = organisation.baseCurrency ?? 'EUR';
  const code = draft.currencyCode ?? previous?.currencyCode ?? base;
  const currency = CURRENCIES.find((c) => c.code === code) ?? fail(SalesErrors.currencyUnknown, { currency: code });
  if (code === base) return { currencyCode: code, exchangeRate: '1', precision: currency.precision };
  const rate = draft.exchangeRate ?? previous?.exchangeRate ?? null;
  if (!rate || !/^\d{1,12}(\.\d{1,10})?$/.test(rate) || new Decimal(rate).lte(0)) return fail(SalesErrors.currencyUnknown, { currency: code });
  return { currencyCode: code, exchangeRate: new Decimal(rate).toString(), precision: currency.precision };
}

/** The header's currency as its lines are priced and rounded in it. */
function documentCurrency(organisation: OrganisationState, header: SalesHeader): DocumentCurrency {
  const { currencyCode, exchangeRate } = header;
  const precision = CURRENCIES.find((c) => c.code === currencyCode)?.precision ?? organisation.currencyPrecision;
  return { currencyCode, exchangeRate, precision, foreign: currencyCode !== (organisation.baseCurrency ?? 'EUR') };
}

function headerOf(kind: SalesDocumentKind, draft: HeaderDraft, previous: SalesHeader | null, customerId: string | null, facts: SalesFacts): SalesHeader {
  const party = customerId ? facts.parties.parties.get(customerId) : undefined;
  const pick = <K extends keyof HeaderDraft & keyof SalesHeader>(k: K, fallback: SalesHeader[K]): SalesHeader[K] =>
    (draft[k] !== undefined ? (draft[k] ?? fallback) : previous ? previous[k] : fallback) as SalesHeader[K];
  const currency = currencyOf(facts.organisation, draft, previous);
  const sentTerms = draft.paymentTermLines;
  const paymentTermLines = kind !== 'INVOICE' ? []
    : sentTerms ? decidePaymentTermLines(sentTerms, (id) => facts.paymentMeanExists(id))
    : previous ? previous.paymentTermLines : party?.terms?.paymentTermLines ?? [];
  return {
    customerId,
    documentDate: (draft.documentDate ?? previous?.documentDate)!,
    operationDate: kind === 'INVOICE' ? pick('operationDate', null) : null,
    socialName: pick('socialName', null),
    vatNumber: pick('vatNumber', null),
    contactName: pick('contactName', null),
    contactPhone: pick('contactPhone', null),
    contactEmail: pick('contactEmail', null),
    mainAddress: pick('mainAddress', null),
    deliveryAddress: pick('deliveryAddress', null),
    comments: pick('comments', null),
    remarks: pick('remarks', null),
    externalReference: pick('externalReference', null),
    salesOrderNumber: kind === 'INVOICE' ? pick('salesOrderNumber', null) : null,
    hasEquivalenceSurcharge: draft.hasEquivalenceSurcharge ?? previous?.hasEquivalenceSurcharge ?? party?.terms?.hasEquivalenceSurcharge ?? false,
    withholdingPercentage: pick('withholdingPercentage', null),
    customerDiscount: previous?.customerDiscount ?? party?.terms?.discount ?? '0',
    ...headerPriceLists(draft, previous, party?.refs ?? null, facts.catalog),
    currencyCode: currency.currencyCode,
    exchangeRate: currency.exchangeRate,
    paymentTermLines,
    invoiceEmail: kind === 'INVOICE' ? pick('invoiceEmail', null) : null,
    specialMention: kind === 'INVOICE' ? pick('specialMention', null) : null,
  };
}

function documentOf(kind: SalesDocumentKind, documentId: string, header: SalesHeader, specs: LineSpec[], facts: SalesFacts, previous: SalesDocument | null): SalesDocument {
  const organisation = facts.organisation;
  const party = header.customerId ? facts.parties.parties.get(header.customerId) : undefined;
  const { precision } = documentCurrency(organisation, header);
  const { lines, amounts } = priced(specs, header, { organisationId: organisation.id!, country: organisation.country!, customerCountry: party?.country ?? null, customerHasVatNumber: party?.terms?.hasVatNumber ?? false, precision, salesTaxRates: facts.salesTaxRates });
  return {
    documentId, kind, invoiceType: kind === 'INVOICE' ? (previous?.invoiceType ?? 'NORMAL') : null, operationalNumber: previous?.operationalNumber ?? null,
    header, lines, amounts, sourceInvoiceId: previous?.sourceInvoiceId ?? null, creditNoteReason: previous?.creditNoteReason ?? null, creditNoteType: previous?.creditNoteType ?? null,
  };
}

/** Origins whose status follows from this change: Closed once every line is taken, Pending again when given back (never one closed by hand). */
function originStatuses(state: SalesState, events: SalesEvent[], origins: Iterable<string>, at: string): SalesEvent[] {
  // Folded on copies of the documents the events touch, so the decision reads the state the events would leave.
  const copies: SalesState = { ...state, documents: new Map(state.documents), lastSequence: new Map(state.lastSequence) };
  const copy = (id: string) => {
    const k = state.documents.get(id);
    if (k && copies.documents.get(id) === k) copies.documents.set(id, { ...k, taken: new Map(k.taken), followers: new Set(k.followers), origins: new Set(k.origins) });
  };
  for (const id of origins) copy(id);
  for (const e of events) {
    const d = e.data as { document?: SalesDocument; documentId?: string };
    const id = d.document?.documentId ?? d.documentId;
    if (id) [id, ...(state.documents.get(id)?.origins ?? [])].forEach(copy);
    evolveSales(copies, e);
  }
  const out: SalesEvent[] = [];
  for (const id of new Set(origins)) {
    const before = state.documents.get(id);
    const after = copies.documents.get(id);
    if (!before || !after || before.document.kind === 'INVOICE') continue;
    const status: SalesDocumentStatus | null = before.status === 'Pending' && allLinesTaken(after) ? 'Closed'
      : before.status === 'Closed' && before.closedByConversion && !allLinesTaken(after) ? 'Pending' : null;
    const reason = status === 'Closed' ? 'linesTaken' : 'linesGivenBack';
    if (status) out.push({ type: 'SalesDocumentStatusChanged', data: { documentId: id, kind: before.document.kind, status, declinedReason: null, reason, at } });
  }
  return out;
}

const originIds = (d: SalesDocument | null | undefined): string[] => (d?.lines ?? []).flatMap((l) => (l.origin ? [l.origin.originId] : []));

const TRANSITIONS: Record<SalesDocumentKind, Partial<Record<UpdateDocumentStatus, { from: SalesDocumentStatus[]; to: SalesDocumentStatus }>>> = {
  QUOTE: {
    DECLINED: { from: ['Pending'], to: 'Declined' }, DECLINE: { from: ['Pending'], to: 'Declined' },
    PENDING: { from: ['Declined', 'Closed'], to: 'Pending' }, CANCEL_DECLINE: { from: ['Declined'], to: 'Pending' },
    CLOSE: { from: ['Pending'], to: 'Closed' },
  },
  ORDER: { CLOSE: { from: ['Pending'], to: 'Closed' } },
  DELIVERY_NOTE: { CLOSE: { from: ['Pending'], to: 'Closed' } },
  INVOICE: {},
};

function requireDocument(state: SalesState, kind: SalesDocumentKind, id: string): KeptDocument {
  const kept = state.documents.get(id);
  // Another kind's id is not found either: deleteSalesOrder never deletes a quote.
  if (!kept || kept.document.kind !== kind) return fail(SalesErrors.documentNotFound, { id });
  return kept;
}

export function decideSales(command: SalesCommand, state: SalesState, facts: SalesFacts): SalesEvent[] {
  const at = command.now;
  if (!facts.organisation.id || !facts.organisation.country) fail(Errors.organisationNotFound);
  switch (command.type) {
    case 'CreateSalesDocument': {
      const { kind, customerId } = command.draft;
      if (state.documents.has(command.documentId)) fail(Errors.documentIdAlreadyExists, { id: command.documentId });
      customerOf(facts, kind, customerId);
      const header = headerOf(kind, command.draft.header, null, customerId, facts);
      const context = { kind, pricing: documentPricing(facts.catalog, documentCurrency(facts.organisation, header), header), customerId, catalog: facts.catalog, sales: state, documentId: command.documentId };
      const specs = newLines(context, command.draft.lines, command.newLineId);
      checkTakes(state, command.documentId, [], specs);
      const series = seriesAtCreation(kind);
      const number = series ? takeNumber(state, series, Number(header.documentDate.slice(0, 4))) : null;
      const document = { ...documentOf(kind, command.documentId, header, specs, facts, null), operationalNumber: number?.operationalNumber ?? null };
      const events: SalesEvent[] = [{ type: 'SalesDocumentCreated', data: { document, number, at } }];
      return [...events, ...originStatuses(state, events, originIds(document), at)];
    }
    case 'UpdateSalesDocument': {
      const { kind, header: sent, lines, replaceLines } = command.draft;
      const kept = requireDocument(state, kind, command.documentId);
      const events: SalesEvent[] = [];
      let status = kept.status;
      const requested = command.draft.updateDocumentStatus;
      if (requested) {
        const move = TRANSITIONS[kind][requested];
        if (!move || !move.from.includes(status)) fail(SalesErrors.statusNotAllowed, { kind, status, requested });
        status = move.to;
        events.push({ type: 'SalesDocumentStatusChanged', data: { documentId: kept.document.documentId, kind, status, declinedReason: status === 'Declined' ? command.draft.declinedReason : null, reason: 'requested', at } });
      }
      const changesContent = lines !== null || Object.values(sent).some((v) => v !== undefined);
      if (!changesContent) {
        if (events.length === 0) fail(Errors.invalidInput, { field: 'lines', reason: Reasons.required });
        return events;
      }
      if (status !== 'Pending') fail(SalesErrors.documentNotPending, { id: command.documentId, status });
      const previous = kept.document;
      const customerId = previous.header.customerId;
      const header = headerOf(kind, sent, previous.header, customerId, facts);
      const context = { kind, pricing: documentPricing(facts.catalog, documentCurrency(facts.organisation, header), header), customerId, catalog: facts.catalog, sales: state, documentId: command.documentId };
      const patched = lines === null ? previous.lines.map(specOf) : patchedLines(context, previous.lines, lines, replaceLines, command.newLineId);
      const specs = pricingTermsChanged(previous.header, header) ? repricedLines(context, patched) : patched;
      checkTakes(state, command.documentId, previous.lines, specs);
      const document = documentOf(kind, command.documentId, header, specs, facts, previous);
      checkCreditNote(state, document);
      events.push({ type: 'SalesDocumentUpdated', data: { document, at } });
      return [...events, ...originStatuses(state, events, [...originIds(previous), ...originIds(document)], at)];
    }
    case 'DeleteSalesDocument': {
      const kept = requireDocument(state, command.kind, command.documentId);
      if (kept.status !== 'Pending') fail(SalesErrors.documentNotPending, { id: command.documentId, status: kept.status });
      if (kept.followers.size > 0) fail(SalesErrors.documentHasFollowers, { id: command.documentId });
      const events: SalesEvent[] = [{ type: 'SalesDocumentDeleted', data: { documentId: command.documentId, kind: command.kind, at } }];
      return [...events, ...originStatuses(state, events, originIds(kept.document), at)];
    }
    case 'LinkSalesDocument': {
      const kept = state.documents.get(command.documentId) ?? fail(SalesErrors.documentNotFound, { id: command.documentId });
      const origin = state.documents.get(command.originId) ?? fail(SalesErrors.documentNotFound, { id: command.originId });
      const kind = kept.document.kind;
      const originKind = origin.document.kind;
      if (originKind === 'INVOICE' || !ALLOWED_CONVERSIONS[kind].includes(originKind) || command.documentId === command.originId) fail(SalesErrors.conversionNotAllowed, { kind, originKind });
      if (kept.origins.has(command.originId)) fail(SalesErrors.alreadyLinked, { id: command.documentId, originId: command.originId });
      const customer = origin.document.header.customerId;
      if (customer !== null && customer !== kept.document.header.customerId) fail(SalesErrors.originOtherCustomer, { id: command.originId });
      return [{ type: 'SalesDocumentLinked', data: { documentId: command.documentId, kind, originId: command.originId, originKind, at } }];
    }
  }
}
