/**
 * What a posted line records of the document behind it (spec §2.2): the invoice a receivable line posts
 * (Sage's AccountingEntryInvoice with its AccountingEntryTax rows) and the matching a settlement's line makes
 * (AccountingEntryPayment). Optional on PostedLine: lines stored before carry neither and read unchanged.
 * Amounts are decimal text in the organisation's currency, as the entry's.
 */
import type { IsoDate } from '../calendar.ts';
import { derivedId } from '../ids.ts';
import type { CreditNoteReason } from './enums.ts';

/** Sage's MatchingType (api/graphql/spec-types.graphql): a settlement closes what was open, or part of it. */
export const MatchingType = ['FULL_MATCH', 'PARTIAL_MATCH'] as const;
export type MatchingType = (typeof MatchingType)[number];

/** One row of the invoice's tax register (per treatment and rate; IRPF withholding rows too). */
export interface EntryInvoiceTax {
  taxBase: string;
  taxAmount: string;
  taxPercentage: string;
  hasEquivalenceSurcharge: boolean;
  equivalenceSurchargePercentage: string;
  equivalenceSurchargeQuota: string;
  taxId: string | null;
  taxTreatmentId: string | null;
  taxGroupId: string | null;
  /** Sage's TaxType (domain/taxes/enums.ts). */
  taxType: string;
  regimeType: 'GENERAL';
  /** Output tax: never deductible (a purchase's input tax would be). */
  deductible: boolean;
}

export interface EntryInvoice {
  /** What the customer owes (the invoice's totalLiquid); negative on a credit note. */
  amount: string;
  documentDate: IsoDate;
  /** The invoice's number (operationalNumber); a single invoice starts and finishes at it. */
  finishInvoiceNumber: string | null;
  /** The customer's reference of it (Sage filters lines by it). */
  externalInvoiceNumber: string | null;
  invoiceTypeId: string | null;
  isCashVat: boolean;
  creditNoteReason: CreditNoteReason | null;
  /** Sage's CreditNoteType (domain/sales/enums.ts). */
  creditNoteType: string | null;
  /** Credit notes: the invoice credited. */
  originalInvoiceNumber: string | null;
  originalInvoiceDate: IsoDate | null;
  /** The AccountingEntryInvoice of the credited invoice's entry (accountingEntryInvoiceIdOf its entry id). */
  originalAccountingEntryInvoiceId: string | null;
  taxes: EntryInvoiceTax[];
}

export interface EntryPayment {
  matchingLetter: string;
  matching: MatchingType;
  /** What the matched lines share: the settlement's id. */
  matchId: string;
}

/** An entry posts at most one invoice: its AccountingEntryInvoice's id derives from the entry's, so a credit note can name it. */
export const accountingEntryInvoiceIdOf = (entryId: string): string => derivedId(entryId, 'accounting-entry-invoice', 'invoice');
