/** The catalogue's commands: decided against the organisation's Catalog stream with its chart as a fact. */
import { decideCatalog, type CatalogCommand, type CatalogState } from '../../domain/catalog/products.ts';
import { answerInputId, command, defined, type DecisionContext } from '../handler.ts';
import { referringToChart } from '../accounting/chart.ts';
import { CatalogAggregate } from './aggregates.ts';
import { ProductCreateInput, ProductDeleteInput, ProductUpdateInput } from './inputs.ts';

const decide = async (catalog: CatalogCommand, state: CatalogState, c: DecisionContext) =>
  decideCatalog(catalog, state, await c.organisation());

/** A product's accounts are not deleted between its check and its append (referringToChart). */
export const createProduct = referringToChart(command({
  input: ProductCreateInput,
  aggregate: CatalogAggregate,
  decide: (i, state, c) => {
    const fields = {
      ...i, lineDescription: i.lineDescription ?? null, comments: i.comments ?? null, taxGroupId: i.taxGroupId ?? null, taxTreatmentId: i.taxTreatmentId ?? null,
      salesAccountingAccountId: i.salesAccountingAccountId ?? null, purchaseAccountId: i.purchaseAccountId ?? null,
    };
    return decide({ type: 'CreateProduct', productId: c.newId('product'), fields, now: c.now }, state, c);
  },
  answer: ([event]) => ({ id: event.data.productId }),
}));

export const updateProduct = referringToChart(command({
  input: ProductUpdateInput,
  aggregate: CatalogAggregate,
  decide: ({ id, ...changes }, state, c) => decide({ type: 'UpdateProduct', productId: id, changes: defined(changes), now: c.now }, state, c),
  answer: answerInputId,
}));

export const deleteProduct = command({
  input: ProductDeleteInput,
  aggregate: CatalogAggregate,
  decide: ({ id }, state, c) => decide({ type: 'DeleteProduct', productId: id, now: c.now }, state, c),
  answer: answerInputId,
});
