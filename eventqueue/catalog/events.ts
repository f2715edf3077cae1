/** Which product catalogue events reach trigger queues, and under which object and action. */
import type { CatalogEvent } from '../../domain/catalog/products.ts';
import type { EventCatalog } from '../event-catalog.ts';

/** (filtersOf describes an empty sample, hence the optional reads.) */
const written = (object: string, event: string) => (d: Record<string, any>) => ({ object, event, key: d.priceList?.id, id: d.priceList?.code });
const deleted = (object: string) => (d: Record<string, any>) => ({ object, event: 'after.delete', key: d.priceListId, id: d.code });

export const CATALOG_EVENTS: EventCatalog<CatalogEvent['type']> = {
  ProductCreated: (d) => ({ object: 'product', event: 'after.create', key: d.productId, id: d.code }),
  ProductUpdated: (d) => ({ object: 'product', event: 'after.update', key: d.productId, id: d.code }),
  ProductDeleted: (d) => ({ object: 'product', event: 'after.delete', key: d.productId, id: d.code }),
  SalesTariffCreated: written('salesTariff', 'after.create'),
  SalesTariffUpdated: written('salesTariff', 'after.update'),
  SalesTariffDeleted: deleted('salesTariff'),
  SalesDiscountCreated: written('salesDiscount', 'after.create'),
  SalesDiscountUpdated: written('salesDiscount', 'after.update'),
  SalesDiscountDeleted: deleted('salesDiscount'),
};
