/**
 * What the ledger records of a sales invoice and of a settlement (pure): the lines of the entry, each with the
 * account it posts to, for the Ledger's posting decider (which still checks them: open period, balance,
 * postable accounts).
 *
 * An invoice, on a SALES_INVOICE journal: the customer's receivable is debited with what the customer owes
 * (totalLiquid); each sales account is credited with the nets of its lines; the output tax of each treatment
 * and rate, and its recargo, are credited; the IRPF the customer withholds is debited (a tax paid on account).
 * Every amount is computed signed (debit positive) and posted on the side its sign says, so a credit note
 * (negative quantities) posts the same accounts on the opposite sides, with positive amounts.
 */
import { assert } from '../errors.ts';
import { Decimal, ZERO } from '../money.ts';
import type { LineInput } from '../accounting/ledger.ts';
import { accountingEntryInvoiceIdOf, type EntryInvoice, type EntryInvoiceTax, type EntryPayment, type MatchingType } from '../accounting/entry-documents.ts';
import type { TaxBreakdownRow } from '../taxes/calculate.ts';
import { roundAmount } from '../taxes/rounding.ts';
import type { IsoDate } from '../calendar.ts';
import type { SalesDocument, SalesLine } from './events.ts';
import type { SalesState } from './state.ts';

/** Where an invoice posts; the caller resolves them against the organisation's chart and the customer. */
export interface InvoicePostingAccounts {
  /** The customer's receivable: the customer's own account, else the organisation's customers account. */
  receivableAccountId: string;
  /** The customer's code, the receivable line's third party. */
  customerCode: string | null;
  /** A line's sales account: its product's, else the organisation's default, intra-EU or export account by the line's treatment kind. */
  salesAccountOf: (line: SalesLine) => string;
  /** The output tax account of a tax row (its treatment's outputAccountCode). */
  outputTaxAccountOf: (row: TaxBreakdownRow) => string;
  /** The recargo of a row: a dedicated account where the chart has one, else the row's output tax account (ES PGC: 4770000). */
  surchargeAccountOf: (row: TaxBreakdownRow) => string;
  /** The country's withholding account (withholdingAccountCode); null where the country has none. */
  withholdingAccountId: string | null;
  /** The invoice's type (domain/reference/invoice-types.ts: F1, or R1..R5 for a credit note). */
  invoiceTypeId: string | null;
  /** The organisation's currency decimals: the entry is in its currency. */
  precision: number;
  /** Credit notes: the credited invoice as posted. */
  original?: { operationalNumber: string | null; documentDate: IsoDate; accountingEntryInvoiceId: string | null } | null;
}

/**
 * What a credit note's entry says of the invoice it credits (the SII's rectified invoice): its number and date,
 * and its entry's AccountingEntryInvoice once it is posted. Null for an invoice that credits nothing.
 */
export function creditedOriginal(state: SalesState, document: SalesDocument): InvoicePostingAccounts['original'] {
  if (document.invoiceType !== 'CREDIT_NOTE' || !document.sourceInvoiceId) return null;
  const source = state.documents.get(document.sourceInvoiceId);
  assert(source, `credit note ${document.documentId} credits ${document.sourceInvoiceId}, which does not exist`);
  return {
    operationalNumber: source.document.operationalNumber,
    documentDate: source.document.header.documentDate,
    accountingEntryInvoiceId: source.postedEntryId ? accountingEntryInvoiceIdOf(source.postedEntryId) : null,
  };
}

/** A line to post, signed: positive debits, negative credits. */
interface Signed {
  subAccountId: string;
  thirdCode: string | null;
  description: string;
  amount: Decimal;
  isSales?: boolean;
  invoice?: EntryInvoice;
  payment?: EntryPayment;
}

/** The signed lines in the organisation's currency, on their sides; lines of zero are left out. */
function sided(lines: Signed[], precision: number): LineInput[] {
  return lines.filter((l) => !l.amount.isZero()).map((l) => {
    assert(l.amount.decimalPlaces() <= precision, `a posting amount of more than ${precision} decimals: ${l.amount.toString()}`);
    return {
      subAccountId: l.subAccountId,
      thirdCode: l.thirdCode,
      description: l.description,
      debitAmount: l.amount.isPositive() ? l.amount.toFixed(precision) : null,
      creditAmount: l.amount.isNegative() ? l.amount.negated().toFixed(precision) : null,
      ...(l.invoice && { invoice: l.invoice }),
      ...(l.payment && { payment: l.payment }),
    };
  });
}

const total = (lines: readonly Signed[]) => lines.reduce((s, l) => s.plus(l.amount), ZERO);

/**
 * Into the organisation's currency: each amount x exchangeRate rounded (halves away from zero) to its
 * decimals. The roundings may leave the entry a few cents off balance: the difference goes to the largest
 * sales line (by amount), so the receivable and the taxes are exactly their converted amounts and the sales
 * revenue absorbs the conversion's rounding.
 */
function converted(lines: Signed[], rate: Decimal, precision: number): Signed[] {
  const out = lines.map((l) => ({ ...l, amount: roundAmount(l.amount.times(rate), precision) }));
  const difference = total(out);
  if (!difference.isZero()) {
    const sales = out.filter((l) => l.isSales);
    assert(sales.length > 0, 'a converted invoice has a sales line to absorb its rounding');
    const largest = sales.reduce((a, b) => (b.amount.abs().gt(a.amount.abs()) ? b : a));
    largest.amount = largest.amount.minus(difference);
  }
  return out;
}

/** One line per account and description (sales, tax, recargo, withholding), in the order they first appear; the receivable first. */
function grouped(lines: readonly Signed[]): Signed[] {
  const byKey = new Map<string, Signed>();
  for (const l of lines) {
    const key = `${l.subAccountId}|${l.thirdCode ?? ''}|${l.description}`;
    const into = byKey.get(key);
    if (into) into.amount = into.amount.plus(l.amount);
    else byKey.set(key, { ...l });
  }
  return [...byKey.values()];
}

/** The invoice's tax register rows, in the organisation's currency: signed as the invoice (negative on a credit note). */
function registerRows(document: SalesDocument, convert: (amount: string) => string): EntryInvoiceTax[] {
  const lineOf = (code: string) => document.lines.find((l) => l.taxTreatmentCode === code);
  const taxes = document.amounts.taxes.map((row): EntryInvoiceTax => {
    const line = lineOf(row.taxTreatmentCode);
    return {
      taxBase: convert(row.taxBase), taxAmount: convert(row.taxAmount), taxPercentage: row.taxPercentage,
      hasEquivalenceSurcharge: row.hasEquivalenceSurcharge, equivalenceSurchargePercentage: row.equivalenceSurchargePercentage,
      equivalenceSurchargeQuota: convert(row.equivalenceSurchargeQuota),
      taxId: line?.taxId ?? null, taxTreatmentId: line?.taxTreatmentId ?? null, taxGroupId: line?.taxGroupId ?? null,
      taxType: row.taxType, regimeType: 'GENERAL', deductible: false,
    };
  });
  const withholdings = document.amounts.withholdings.map((w): EntryInvoiceTax => ({
    taxBase: convert(w.withholdingBase), taxAmount: convert(w.withholdingAmount), taxPercentage: w.withholdingPercentage,
    hasEquivalenceSurcharge: false, equivalenceSurchargePercentage: '0', equivalenceSurchargeQuota: convert('0'),
    taxId: null, taxTreatmentId: null, taxGroupId: null, taxType: 'IRPF', regimeType: 'GENERAL', deductible: false,
  }));
  return [...taxes, ...withholdings];
}

/** The lines of a sales invoice's (or credit note's) entry. Balanced to the cent, or an invariant breaks. */
export function invoicePosting(document: SalesDocument, accounts: InvoicePostingAccounts): LineInput[] {
  const { totals, taxes, withholdings } = document.amounts;
  const { precision } = accounts;
  const rate = new Decimal(document.header.exchangeRate);
  assert(rate.isPositive(), `invoice ${document.documentId}: exchange rate ${document.header.exchangeRate}`);
  const convert = (amount: string) => roundAmount(new Decimal(amount).times(rate), precision).toFixed(precision);
  const number = document.operationalNumber;
  const label = (what: string) => (number ? `${what} ${number}` : what);
  const lines: Signed[] = [];

  // Signed per document line and per tax row, converted each on its own, then grouped per account: the
  // posted tax equals the sum of the register's (converted) rows.
  lines.push({ subAccountId: accounts.receivableAccountId, thirdCode: accounts.customerCode, description: label('Invoice'), amount: new Decimal(totals.totalLiquid) });
  for (const l of document.lines) lines.push({ subAccountId: accounts.salesAccountOf(l), thirdCode: null, description: label('Sales'), amount: new Decimal(l.totalNet).negated(), isSales: true });
  for (const r of taxes) lines.push({ subAccountId: accounts.outputTaxAccountOf(r), thirdCode: null, description: label('Output tax'), amount: new Decimal(r.taxAmount).negated() });
  for (const r of taxes) lines.push({ subAccountId: accounts.surchargeAccountOf(r), thirdCode: null, description: label('Equivalence surcharge'), amount: new Decimal(r.equivalenceSurchargeQuota).negated() });
  if (withholdings.some((w) => !new Decimal(w.withholdingAmount).isZero())) {
    assert(accounts.withholdingAccountId, `invoice ${document.documentId} withholds, and the country has no withholding account`);
    for (const w of withholdings) lines.push({ subAccountId: accounts.withholdingAccountId, thirdCode: null, description: label('Withholding'), amount: new Decimal(w.withholdingAmount) });
  }
  // The document's own amounts balance before any conversion: its totals are the sums of its rows.
  assert(total(lines).isZero(), `invoice ${document.documentId}: its totals do not balance (${total(lines).toString()})`);

  const posted = grouped(rate.eq(1) ? lines : converted(lines, rate, precision));
  assert(total(posted).isZero(), `invoice ${document.documentId}: the entry does not balance`);
  posted[0].invoice = {
    amount: posted[0].amount.toFixed(precision),
    documentDate: document.header.documentDate,
    finishInvoiceNumber: number,
    externalInvoiceNumber: document.header.externalReference,
    invoiceTypeId: accounts.invoiceTypeId,
    isCashVat: false,
    creditNoteReason: document.creditNoteReason,
    creditNoteType: document.creditNoteType,
    originalInvoiceNumber: accounts.original?.operationalNumber ?? null,
    originalInvoiceDate: accounts.original?.documentDate ?? null,
    originalAccountingEntryInvoiceId: accounts.original?.accountingEntryInvoiceId ?? null,
    taxes: registerRows(document, convert),
  };
  return sided(posted, precision);
}

/** One invoice a settlement pays, in the organisation's currency. */
export interface SettledInvoice {
  receivableAccountId: string;
  customerCode: string | null;
  /** The invoice's number, the line's description. */
  invoiceNumber: string | null;
  /** What is paid of it now (positive; a credit note's refund is negative). */
  paidAmount: string;
  /** What was open of it before this settlement: paying it all is a full match. */
  openAmount: string;
}

export interface Settlement {
  settlementId: string;
  /** The payment method's bank or cash account. */
  bankAccountId: string;
  /** The settlement's letter (matchingLetterOf), on every receivable line it matches. */
  matchingLetter: string;
  invoices: SettledInvoice[];
  precision: number;
}

/**
 * A settlement's entry: the bank or cash account debited with what came in, each invoice's receivable credited
 * on its own line (the ledger keeps lines carrying a payment apart), matched FULL when it pays what was open.
 */
export function paymentPosting(settlement: Settlement): LineInput[] {
  const credits = settlement.invoices.map((i): Signed => {
    const paid = new Decimal(i.paidAmount);
    const matching: MatchingType = paid.eq(i.openAmount) ? 'FULL_MATCH' : 'PARTIAL_MATCH';
    return {
      subAccountId: i.receivableAccountId, thirdCode: i.customerCode, description: i.invoiceNumber ? `Payment ${i.invoiceNumber}` : 'Payment',
      amount: paid.negated(), payment: { matchingLetter: settlement.matchingLetter, matching, matchId: settlement.settlementId },
    };
  });
  const bank: Signed = { subAccountId: settlement.bankAccountId, thirdCode: null, description: `Settlement ${settlement.matchingLetter}`, amount: total(credits).negated() };
  return sided([bank, ...credits], settlement.precision);
}
