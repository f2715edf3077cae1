/** The catalogue's commands: decided against the organisation's Catalog stream with its chart as a fact. */
import { CatalogErrors } from '../../domain/catalog/errors.ts';
import { fail } from '../../domain/errors.ts';
import { documentsNameProduct } from '../../domain/sales/usage.ts';
import { SalesAggregate } from '../sales/aggregates.ts';
import { decideCatalog, type CatalogCommand, type CatalogState } from '../../domain/catalog/products.ts';
import { answerInputId, command, defined, type DecisionContext } from '../handler.ts';
import { referringToChart } from '../accounting/chart.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
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

/**
 * A product a live sales document names stays: the Sales stream held, no document takes it meanwhile in this
 * process; the organisation's lock held alone, nor in another (sales document commands share it).
 */
export const deleteProduct = aloneInOrganisation(command({
  input: ProductDeleteInput,
  aggregate: CatalogAggregate,
  alsoHold: [SalesAggregate],
  decide: async ({ id }, state, c) => {
    const events = await decide({ type: 'DeleteProduct', productId: id, now: c.now }, state, c);
    if (documentsNameProduct(await c.held(SalesAggregate), id)) fail(CatalogErrors.productInUse, { code: state.products.get(id)!.code });
    return events;
  },
  answer: answerInputId,
}));
