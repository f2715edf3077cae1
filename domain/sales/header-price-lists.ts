/**
 * A document header's sales tariff and discount group (Sage's header fields salesTariffId and
 * salesDiscountGroupId, breadth §1.1 "Pricing"): as sent (checked to be the organisation's lists; null sends
 * none), else as the document had them, else the customer's at creation. Pure.
 */
import { CatalogErrors } from '../catalog/errors.ts';
import type { PriceListKind } from '../catalog/price-lists.ts';
import type { CatalogState } from '../catalog/products.ts';
import { fail } from '../errors.ts';
import type { PartyRefs } from '../parties/parties.ts';
import type { HeaderDraft } from './drafts.ts';
import type { SalesHeader } from './events.ts';

type HeaderLists = Pick<SalesHeader, 'salesTariffId' | 'salesDiscountGroupId'>;

function listId(catalog: CatalogState, kind: PriceListKind, sent: string | null | undefined, kept: string | null | undefined): string | null {
  if (sent === undefined) return kept ?? null;
  if (sent !== null && !catalog.priceLists.lists[kind].has(sent)) fail(CatalogErrors.priceListNotFound, { kind, id: sent });
  return sent;
}

export function headerPriceLists(draft: HeaderDraft, previous: SalesHeader | null, customer: Pick<PartyRefs, 'salesTariffId' | 'salesDiscountGroupId'> | null, catalog: CatalogState): HeaderLists {
  const before = previous ?? { salesTariffId: customer?.salesTariffId ?? null, salesDiscountGroupId: customer?.salesDiscountGroupId ?? null };
  return {
    salesTariffId: listId(catalog, 'salesTariff', draft.salesTariffId, before.salesTariffId),
    salesDiscountGroupId: listId(catalog, 'salesDiscount', draft.salesDiscountGroupId, before.salesDiscountGroupId),
  };
}

/** What a line's catalogue price depends on changed: its lines priced from the catalogue are priced again. */
export const pricingTermsChanged = (before: SalesHeader, after: SalesHeader): boolean =>
  (['currencyCode', 'exchangeRate', 'documentDate', 'salesTariffId', 'salesDiscountGroupId'] as const).some((k) => before[k] !== after[k]);
