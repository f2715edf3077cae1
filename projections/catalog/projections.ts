/** Projection of the Catalog events into the products', sales tariffs' and discount groups' read models. */
import { CATALOG_EVENT_TYPES, type CatalogEvent } from '../../domain/catalog/products.ts';
import { applyPriceList } from './price-list-projection.ts';
import { projectionsOf, type Projection } from '../engine/projection.ts';
import { Product } from './read-models.ts';
import { CATALOG_RESOURCES } from './resources.ts';

export const catalogProjection: Projection = {
  name: 'catalog',
  resources: CATALOG_RESOURCES,
  eventTypes: CATALOG_EVENT_TYPES,
  apply(event, w, t) {
    const e = { type: event.type, data: event.data } as CatalogEvent;
    switch (e.type) {
      case 'ProductCreated': {
        const { productId, at, ...fields } = e.data;
        return w.insert(Product, t(Product), { ...fields, organisationId: event.metadata.organisationId as string, id: productId, creationDate: at, modificationDate: at });
      }
      case 'ProductUpdated':
        return w.update(Product, t(Product), { id: e.data.productId }, { ...e.data.changes, modificationDate: e.data.at });
      case 'ProductDeleted':
        return w.delete(Product, t(Product), { id: e.data.productId });
      default:
        return applyPriceList(e, event.metadata.organisationId as string, w, t);
    }
  },
};

export const PROJECTIONS = projectionsOf(import.meta.url, [catalogProjection]);
