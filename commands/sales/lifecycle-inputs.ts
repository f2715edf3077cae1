/** Inputs of closeSalesInvoice and generateCreditNote, in Sage's names (breadth §1.2, §1.3), validated with zod. */
import { z } from 'zod';
import { CreditNoteReason } from '../../domain/accounting/enums.ts';
import { CreditNoteType } from '../../domain/sales/enums.ts';
import { MAX_DOCUMENT_LINES } from '../../domain/taxes/calculate.ts';
import { gql, named } from '../input-types.ts';

export const CloseSalesInvoiceInput = named('CloseSalesInvoiceGLDtoInput', z.object({ salesInvoiceId: gql.uuid }));

const CreditLine = named('GenerateCreditNoteLineGLDtoInput', z.object({ productId: gql.uuid, quantity: gql.decimal, unitPrice: gql.decimal.nullish() }));

export const GenerateCreditNoteInput = named('GenerateCreditNoteGLDtoInput', z.object({
  /** The invoice credited. */
  id: gql.uuid,
  /** Absent or null: the whole invoice. */
  lines: z.array(CreditLine).max(MAX_DOCUMENT_LINES).nullish(),
  creditNoteReason: gql.enumOf('CreditNoteReason', CreditNoteReason).nullish(),
  creditNoteType: gql.enumOf('CreditNoteType', CreditNoteType).nullish(),
  /** Accepted (Sage 2026-05); the credit note is numbered in its own series when closed. */
  operationalNumberPresetTextId: gql.uuid.nullish(),
  /** The credit note's date; today when absent. */
  outputDocumentDate: z.iso.date().nullish(),
}));
