/**
 * What a create or update command carries once parsed: the header fields sent and the lines, each line a
 * CREATE (no id), a MODIFY (an id, the default) or a DELETE (explicit), as Sage's sub-collection updates
 * (sage-names.md §1.9). Decimals are exact text as the client sent them.
 */
import type { PaymentTermLineInput } from '../settings/payment-terms.ts';
import type { SalesDocumentKind, SalesLineOriginType, UpdateDocumentStatus } from './enums.ts';
import type { SalesAddress } from './events.ts';

import { RequestedAction } from '../parties/enums.ts';

export { RequestedAction };

export interface LineDraft {
  id?: string;
  requestedAction?: RequestedAction;
  productId?: string | null;
  productCode?: string | null;
  productName?: string | null;
  totalQuantity?: string | null;
  unitPrice?: string | null;
  firstDiscount?: string | null;
  originType?: SalesLineOriginType | null;
  originId?: string | null;
  originLineId?: string | null;
}

/** Header fields a client may send; absent leaves them as they are (update) or empty (create). */
export interface HeaderDraft {
  documentDate?: string;
  operationDate?: string | null;
  socialName?: string | null;
  vatNumber?: string | null;
  contactName?: string | null;
  contactPhone?: string | null;
  contactEmail?: string | null;
  mainAddress?: SalesAddress | null;
  deliveryAddress?: SalesAddress | null;
  comments?: string | null;
  remarks?: string | null;
  externalReference?: string | null;
  salesOrderNumber?: string | null;
  hasEquivalenceSurcharge?: boolean | null;
  /** IRPF withholding percentage (ES); null removes it. */
  withholdingPercentage?: string | null;
  /** The document's sales tariff and discount group (the organisation's); null removes them. */
  salesTariffId?: string | null;
  salesDiscountGroupId?: string | null;
  invoiceEmail?: string | null;
  specialMention?: string | null;
  /** ISO 4217 code (currencyId is resolved to it by the input). */
  currencyCode?: string | null;
  exchangeRate?: string | null;
  paymentTermLines?: PaymentTermLineInput[] | null;
}

export interface CreateDraft {
  kind: SalesDocumentKind;
  customerId: string | null;
  header: HeaderDraft & { documentDate: string };
  lines: LineDraft[];
}

export interface UpdateDraft {
  kind: SalesDocumentKind;
  header: HeaderDraft;
  lines: LineDraft[] | null;
  /** The sent lines replace the document's (`replaceAll: ["LINES"]`); else they patch them. */
  replaceLines: boolean;
  updateDocumentStatus: UpdateDocumentStatus | null;
  declinedReason: string | null;
}
