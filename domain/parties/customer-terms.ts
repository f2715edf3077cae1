/**
 * What a sales document takes from its customer, kept clear in the Parties state (none of it is personal):
 * the customer's discount, whether it is in recargo de equivalencia, the blocks per document kind and its
 * own payment term lines, whether it has a VAT number (the number is sealed; the command side records this
 * clear fact beside it, intra-EU sales read it). Folded from the party events' clear fields only.
 */
import type { ClearFields } from './fields.ts';
import type { PaymentTermLine } from '../settings/payment-terms.ts';

export interface CustomerTerms {
  /** Percentage, decimal text. */
  discount: string;
  hasEquivalenceSurcharge: boolean;
  blockOrderEnabled: boolean;
  blockDeliveryNoteEnabled: boolean;
  blockInvoiceEnabled: boolean;
  paymentTermLines: PaymentTermLine[];
  /** Unknown (false) for a party saved before the fact was recorded, until its VAT number is sent again. */
  hasVatNumber: boolean;
}

const NONE: CustomerTerms = {
  discount: '0', hasEquivalenceSurcharge: false, blockOrderEnabled: false, blockDeliveryNoteEnabled: false, blockInvoiceEnabled: false, paymentTermLines: [], hasVatNumber: false,
};

const flag = (value: unknown, previous: boolean) => (typeof value === 'boolean' ? value : previous);

/** The terms after an event's clear fields (changed where the event names them) and its payment term lines (null: unchanged). */
export function customerTermsAfter(previous: CustomerTerms | undefined, fields: ClearFields, lines: PaymentTermLine[] | null): CustomerTerms {
  const was = previous ?? NONE;
  return {
    discount: typeof fields.discount === 'string' || typeof fields.discount === 'number' ? String(fields.discount) : was.discount,
    hasEquivalenceSurcharge: flag(fields.hasEquivalenceSurcharge, was.hasEquivalenceSurcharge),
    blockOrderEnabled: flag(fields.blockOrderEnabled, was.blockOrderEnabled),
    blockDeliveryNoteEnabled: flag(fields.blockDeliveryNoteEnabled, was.blockDeliveryNoteEnabled),
    blockInvoiceEnabled: flag(fields.blockInvoiceEnabled, was.blockInvoiceEnabled),
    paymentTermLines: lines ?? was.paymentTermLines,
    hasVatNumber: flag(fields.hasVatNumber, was.hasVatNumber),
  };
}
