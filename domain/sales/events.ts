/**
 * The Sales aggregate's events: one stream per organisation, `Sales-<organisationId>`. Every rule that spans
 * documents is decided inside it, in one append: gap-free number series, conversions and their pending
 * quantities, what a credit note may still credit, the open amount a settlement may take.
 *
 * A document event records the document whole as it stands after the change (header, lines with their
 * amounts, taxes, totals): what an auditor reads is what the document said then, computed with the rates and
 * rounding of that day; later catalogue changes never rewrite it. Amounts are decimal text (decimal.js,
 * NUMERIC in the read models), in the document's currency.
 */
import type { IsoDate } from '../calendar.ts';
import type { CreditNoteReason } from '../accounting/enums.ts';
import type { PriceSource } from '../catalog/enums.ts';
import type { PaymentTermLine } from '../settings/payment-terms.ts';
import type { DocumentTotals, TaxBreakdownRow, WithholdingRow } from '../taxes/calculate.ts';
import type { RoundingLevel, RoundingMode } from '../taxes/catalogue/types.ts';
import type { CreditNoteType, SalesDocumentKind, SalesDocumentStatus, SalesInvoiceType, SalesLineOriginType } from './enums.ts';

/** A postal address as a document prints it (Sage's mainAddress/deliveryAddress). */
export interface SalesAddress {
  name: string | null;
  firstLine: string | null;
  secondLine: string | null;
  city: string | null;
  zipCode: string | null;
  province: string | null;
  countryIsoCodeAlpha2: string | null;
}

/** Where a converted line comes from. */
export interface SalesLineOrigin {
  originType: SalesLineOriginType;
  originId: string;
  originLineId: string;
}

/** A line as recorded: what was sent or taken from the product, the tax it was charged, its amounts. */
export interface SalesLine {
  lineId: string;
  /** 1..n in the order the client sent them. */
  order: number;
  productId: string | null;
  productCode: string | null;
  productName: string | null;
  /** Decimal text; negative on a credit note, and on an advance deduction. */
  totalQuantity: string;
  unitPrice: string;
  /**
   * Where the unit price came from: the product's or a tariff's (converted into the document's currency) are
   * priced again when the header's currency, rate, date or lists change; one sent (INPUT) never is. Internal.
   */
  unitPriceSource: PriceSource;
  /** Percentage (Sage's only line discount). */
  firstDiscount: string;
  /** Where firstDiscount came from (the product's, a discount group's or sent), as for the price. Internal. */
  firstDiscountSource: PriceSource;
  /** The tax it was charged, as of the document's date (ids of the organisation's rows). */
  taxTreatmentId: string;
  taxTreatmentCode: string;
  taxId: string;
  taxGroupId: string | null;
  vatPercentage: string;
  equivalenceSurchargePercentage: string;
  withholdingPercentage: string;
  /** A service, not goods (recargo and intra-EU rules differ). */
  isService: boolean;
  totalGross: string;
  totalDiscount: string;
  totalNet: string;
  origin: SalesLineOrigin | null;
  /** On a credit note: the source invoice's line it credits. */
  creditedLineId: string | null;
}

/** The header: who, when, in which currency, under which terms. */
export interface SalesHeader {
  /** Null only on a quote to a lead. */
  customerId: string | null;
  documentDate: IsoDate;
  /** Invoices: the date of the supply, when it differs. */
  operationDate: IsoDate | null;
  socialName: string | null;
  vatNumber: string | null;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  mainAddress: SalesAddress | null;
  deliveryAddress: SalesAddress | null;
  comments: string | null;
  remarks: string | null;
  externalReference: string | null;
  /** Invoices: the customer's order reference. */
  salesOrderNumber: string | null;
  hasEquivalenceSurcharge: boolean;
  /** IRPF (ES): the rate the customer withholds on the document's service lines, one of the country's; null for none. */
  withholdingPercentage: string | null;
  /** The customer's discount (percent) applied on every line's net, after firstDiscount. */
  customerDiscount: string;
  salesTariffId: string | null;
  salesDiscountGroupId: string | null;
  /** ISO 4217 code; the organisation's currency unless the document says another. */
  currencyCode: string;
  /** Units of the organisation's currency per unit of the document's ('1' in the organisation's currency). */
  exchangeRate: string;
  /** Invoices: the instalments the open items come from. */
  paymentTermLines: PaymentTermLine[];
  invoiceEmail: string | null;
  specialMention: string | null;
}

/** The taxes and totals of the document as calculated (domain/taxes/calculate.ts) with the rounding used. */
export interface SalesAmounts {
  rounding: { level: RoundingLevel; mode: RoundingMode };
  taxes: TaxBreakdownRow[];
  withholdings: WithholdingRow[];
  totals: DocumentTotals;
}

/** A whole document as it stands. */
export interface SalesDocument {
  documentId: string;
  kind: SalesDocumentKind;
  /** Invoices only: NORMAL, CREDIT_NOTE (then sourceInvoiceId is set) or PAYMENT_IN_ADVANCE. */
  invoiceType: SalesInvoiceType | null;
  /** Quotes, orders and delivery notes are numbered at creation; invoices when closed (null until then). */
  operationalNumber: string | null;
  header: SalesHeader;
  lines: SalesLine[];
  amounts: SalesAmounts;
  /** Credit notes: the invoice credited, why and how (ES rectificativa R1-R5; by differences or substitutive). */
  sourceInvoiceId: string | null;
  creditNoteReason: CreditNoteReason | null;
  creditNoteType: CreditNoteType | null;
}

/** A number taken from a series: `F2026-000123` is series F, year 2026, sequence 123 (DESIGN.md). */
export interface TakenNumber {
  /** The series key: one per document type (quote, order, delivery note, invoice, credit note). */
  series: string;
  year: number;
  sequence: number;
  operationalNumber: string;
}

/** One instalment of a posted invoice's payment terms. */
export interface OpenItemDue {
  openItemId: string;
  dueDate: IsoDate;
  /** In the document's currency; the instalments add up to the invoice's totalLiquid. */
  amount: string;
  paymentMeanId: string | null;
}

/** What a settlement paid of one open item. */
export interface OpenItemPayment {
  openItemId: string;
  invoiceId: string;
  paidAmount: string;
  /**
   * What the payment entry credited of the receivable in the organisation's currency (decimal text): the bank got
   * as much. Absent in settlements written before it was recorded (read as the paid amount at the invoice's rate).
   */
  organisationAmount?: string;
}

/**
 * Why a document's status changed: asked for (CLOSE, DECLINE ...), or followed from its lines (all taken by
 * later documents, or given back). Absent on events written before it was recorded (state.ts derives it).
 */
export type SalesStatusReason = 'requested' | 'linesTaken' | 'linesGivenBack';

export type SalesEvent =
  /** A quote, order or delivery note takes its number now (`number`); an invoice (and a credit note) has none yet. */
  | { type: 'SalesDocumentCreated'; data: { document: SalesDocument; number: TakenNumber | null; at: string } }
  /** The document whole after an update (header and lines as they now stand). */
  | { type: 'SalesDocumentUpdated'; data: { document: SalesDocument; at: string } }
  /** Only a Pending document with no document after it; its lines give back what they took from their origins. */
  | { type: 'SalesDocumentDeleted'; data: { documentId: string; kind: SalesDocumentKind; at: string } }
  /**
   * A status set by updateDocumentStatus (decline, close, back to pending), or by a conversion that took all
   * of a document's pending quantities (Closed). Invoices' statuses come from their own events below.
   */
  | { type: 'SalesDocumentStatusChanged'; data: { documentId: string; kind: SalesDocumentKind; status: SalesDocumentStatus; declinedReason: string | null; reason?: SalesStatusReason; at: string } }
  /** linkRelatedSalesDocument: an existing document now follows another (an allowed path). */
  | { type: 'SalesDocumentLinked'; data: { documentId: string; kind: SalesDocumentKind; originId: string; originKind: SalesDocumentKind; at: string } }
  /** closeSalesInvoice: locked, numbered in its series (gap-free per series and year). */
  | { type: 'SalesInvoiceClosed'; data: { invoiceId: string; number: TakenNumber; at: string } }
  /**
   * postSalesInvoice: the entry (appended to the exercise's Ledger stream first, its id derived from the
   * invoice's, so a retry after a crash between the two appends finds it and completes) and the open items.
   */
  | { type: 'SalesInvoicePosted'; data: { invoiceId: string; exerciseId: string; entryId: string; entryNumber: number; journalTypeId: string; openItems: OpenItemDue[]; at: string } }
  /** salesOpenItemSettlement: the payment entry (Ledger first, as for posting) and what it paid of each item. */
  | { type: 'SalesOpenItemsSettled'; data: { settlementId: string; exerciseId: string; entryId: string; entryNumber: number; paymentMethodId: string; entryDate: IsoDate; payments: OpenItemPayment[]; matchingLetter?: string; at: string } }
  /** The settlement's entry was deleted: what it paid is open again. */
  | { type: 'SalesSettlementUndone'; data: { settlementId: string; entryId: string; at: string } };

export const SALES_EVENT_TYPES = [
  'SalesDocumentCreated', 'SalesDocumentUpdated', 'SalesDocumentDeleted', 'SalesDocumentStatusChanged', 'SalesDocumentLinked',
  'SalesInvoiceClosed', 'SalesInvoicePosted', 'SalesOpenItemsSettled', 'SalesSettlementUndone',
] as const satisfies readonly SalesEvent['type'][];
