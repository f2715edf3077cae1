/** The catalogue's commands: decided against the organisation's Catalog stream with its chart as a fact. */
import { decideCatalog, type CatalogCommand, type CatalogState } from '../../domain/catalog/products.ts';
import { answerInputId, command, type DecisionContext } from '../handler.ts';
import { CatalogAggregate } from './aggregates.ts';
import { ProductCreateInput, ProductDeleteInput } from './inputs.ts';

const decide = async (catalog: CatalogCommand, state: CatalogState, c: DecisionContext) =>
  decideCatalog(catalog, state, await c.organisation());

export const createProduct = command({
  input: ProductCreateInput,
  aggregate: CatalogAggregate,
  decide: (i, state, c) => {
    const fields = {
      ...i, description: i.description ?? null, unitPrice: i.unitPrice ?? null, taxTreatmentId: i.taxTreatmentId ?? null,
      salesAccountId: i.salesAccountId ?? null, purchaseAccountId: i.purchaseAccountId ?? null,
    };
    return decide({ type: 'CreateProduct', productId: c.newId('product'), fields, now: c.now }, state, c);
  },
  answer: ([event]) => ({ id: event.data.productId }),
});

export const deleteProduct = command({
  input: ProductDeleteInput,
  aggregate: CatalogAggregate,
  decide: ({ id }, state, c) => decide({ type: 'DeleteProduct', productId: id, now: c.now }, state, c),
  answer: answerInputId,
});
