/**
 * The sales tax rate commands: each decides against the organisation's Taxes stream with the organisation (its
 * country) as a fact. A change or deletion holds the Sales stream too and reads from it which documents use
 * the rate, so no document takes it between the check and the append; a deletion holds the Catalog stream as
 * well (no product may name a deleted rate's treatment). Both take the organisation's lock alone first, as
 * deleteProduct does: sales commands share it, so no other process takes the rate meanwhile either.
 */
import type { z } from 'zod';
import { taxIdOf, taxTreatmentIdOf, salesTaxTreatmentCode } from '../../domain/taxes/catalogue/index.ts';
import { decideTaxes, type RateUsage, type TaxesCommand } from '../../domain/taxes/sales-tax-rates.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import type { CatalogState } from '../../domain/catalog/products.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import type { Aggregate } from '../aggregate-store.ts';
import { command, type CommandHandler, type DecisionContext } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import { SalesAggregate } from '../sales/aggregates.ts';
import { TaxesAggregate } from './aggregates.ts';
import { TaxCreateInput, TaxDeleteInput, TaxUpdateInput } from './inputs.ts';

/**
 * Whether a recorded document uses the rate's treatment, the latest date of a posted one that does, and (the
 * Catalog stream held) a product naming the treatment.
 */
function usageOf(organisationId: string, sales: SalesState, catalog: CatalogState | null, code: string | undefined): RateUsage {
  const treatment = code && salesTaxTreatmentCode(code);
  const treatmentId = treatment && taxTreatmentIdOf(organisationId, treatment);
  const product = catalog && treatmentId ? [...catalog.products.values()].find((p) => p.taxTreatmentId === treatmentId) : undefined;
  let used = false;
  let lastPostedDate: string | null = null;
  for (const { document, postedEntryId } of sales.documents.values()) {
    if (!document.lines.some((l) => l.taxTreatmentCode === treatment)) continue;
    used = true;
    if (postedEntryId && (lastPostedDate === null || document.header.documentDate > lastPostedDate)) lastPostedDate = document.header.documentDate;
  }
  return { used, lastPostedDate, productCode: product?.code ?? null };
}

/** The fields an update sends (null, as absent, leaves one unchanged: none of them can be cleared). */
const sent = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;

function taxesCommand<I extends object>(input: z.ZodType<I>, build: (input: I, c: DecisionContext, usage: () => Promise<RateUsage>) => TaxesCommand | Promise<TaxesCommand>, alsoHold: readonly Aggregate<any, any>[]): CommandHandler {
  return command({
    input, aggregate: TaxesAggregate, alsoHold,
    decide: async (i, state, c) => {
      const code = 'id' in i ? state.rates.get(i.id as string)?.code : undefined;
      const catalog = alsoHold.includes(CatalogAggregate) ? await c.held(CatalogAggregate) : null;
      const usage = async () => usageOf(c.ctx.organisationId, await c.held(SalesAggregate), catalog, code);
      return decideTaxes(await build(i, c, usage), state, await c.organisation());
    },
    answer: ([event]) => ({ id: (event.data as { taxId: string }).taxId }),
  });
}

// The tax id derives from the code, as the catalogue's rows' do: the rate's Tax and TaxTreatment rows are found by it.
export const createTax = taxesCommand(TaxCreateInput, (i, c) => {
  const { taxType, ...fields } = i;
  return { type: 'CreateSalesTaxRate', taxId: taxIdOf(c.ctx.organisationId, fields.code), taxType: taxType ?? null, fields, now: c.now };
}, []);

export const updateTax = aloneInOrganisation(taxesCommand(TaxUpdateInput, async ({ id, taxType, ...changes }, c, usage) => ({ type: 'UpdateSalesTaxRate', taxId: id, taxType: taxType ?? null, changes: sent(changes), usage: await usage(), now: c.now }), [SalesAggregate]));

export const deleteTax = aloneInOrganisation(taxesCommand(TaxDeleteInput, async ({ id }, c, usage) => ({ type: 'DeleteSalesTaxRate', taxId: id, usage: await usage(), now: c.now }), [SalesAggregate, CatalogAggregate]));
