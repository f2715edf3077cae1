/** Which product catalogue events reach trigger queues, and under which object and action. */
import type { ProductEvent } from '../../domain/catalog/products.ts';
import type { EventCatalog } from '../event-catalog.ts';

export const CATALOG_EVENTS: EventCatalog<ProductEvent['type']> = {
  ProductCreated: (d) => ({ object: 'product', event: 'after.create', key: d.productId, id: d.code }),
  ProductUpdated: (d) => ({ object: 'product', event: 'after.update', key: d.productId, id: d.code }),
  ProductDeleted: (d) => ({ object: 'product', event: 'after.delete', key: d.productId, id: d.code }),
};
