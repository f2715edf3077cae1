/** Projection of the Catalog events into the products' read model. */
import { PRODUCT_EVENT_TYPES, type ProductEvent } from '../../domain/catalog/products.ts';
import { projectionsOf, type Projection } from '../engine/projection.ts';
import { CATALOG_RESOURCES, Product } from './read-models.ts';

export const catalogProjection: Projection = {
  name: 'catalog',
  resources: CATALOG_RESOURCES,
  eventTypes: PRODUCT_EVENT_TYPES,
  apply(event, w, t) {
    const e = { type: event.type, data: event.data } as ProductEvent;
    switch (e.type) {
      case 'ProductCreated': {
        const { productId, at, ...fields } = e.data;
        return w.insert(Product, t(Product), { ...fields, organisationId: event.metadata.organisationId as string, id: productId, creationDate: at, modificationDate: at });
      }
      case 'ProductUpdated':
        return w.update(Product, t(Product), { id: e.data.productId }, { ...e.data.changes, modificationDate: e.data.at });
      case 'ProductDeleted':
        return w.delete(Product, t(Product), { id: e.data.productId });
    }
  },
};

export const PROJECTIONS = projectionsOf(import.meta.url, [catalogProjection]);
