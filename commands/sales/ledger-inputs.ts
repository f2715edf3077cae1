/** Inputs of posting an invoice and settling open items, in Sage's names (breadth §1.2, §1.5), validated with zod. */
import { z } from 'zod';
import { gql, named } from '../input-types.ts';

/** Explicit limits: Sage's description length; open items one settlement may pay. */
export const SALES_LEDGER_LIMITS = Object.freeze({ accountingEntryDescription: 200, description: 200, documentNumber: 50, settledItems: 200 });
const L = SALES_LEDGER_LIMITS;

export const PostSalesInvoiceInput = named('PostSalesInvoiceGLDtoInput', z.object({
  salesInvoiceId: gql.uuid,
  accountingEntryDescription: z.string().max(L.accountingEntryDescription).nullish(),
  journalTypeId: gql.uuid,
}));

const PaidAmount = named('SalesOpenItemLinkagePaidAmountGLDtoInput', z.object({ openItemId: gql.uuid, paidAmount: gql.decimal }));

export const SalesOpenItemSettlementInput = named('SalesOpenItemSettlementGLDtoInput', z.object({
  entryDate: z.iso.date(),
  paymentMethodId: gql.uuid,
  description: z.string().max(L.description).nullish(),
  documentNumber: z.string().max(L.documentNumber).nullish(),
  thirdPartyId: gql.uuid,
  salesOpenItemLinkagePaidAmounts: z.array(PaidAmount).min(1).max(L.settledItems),
}));
