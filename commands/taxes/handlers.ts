/**
 * The sales tax rate commands: each decides against the organisation's Taxes stream with the organisation (its
 * country) as a fact. A change or deletion holds the Sales stream too and reads from it which documents use
 * the rate, so no document takes it between the check and the append.
 */
import type { z } from 'zod';
import { taxIdOf, salesTaxTreatmentCode } from '../../domain/taxes/catalogue/index.ts';
import { decideTaxes, type RateUsage, type TaxesCommand } from '../../domain/taxes/sales-tax-rates.ts';
import type { SalesState } from '../../domain/sales/state.ts';
import { command, type CommandHandler, type DecisionContext } from '../handler.ts';
import { SalesAggregate } from '../sales/aggregates.ts';
import { TaxesAggregate } from './aggregates.ts';
import { TaxCreateInput, TaxDeleteInput, TaxUpdateInput } from './inputs.ts';

/** Whether a recorded document uses the rate's treatment, and the latest date of a posted one that does. */
function usageOf(sales: SalesState, code: string | undefined): RateUsage {
  const treatment = code && salesTaxTreatmentCode(code);
  let used = false;
  let lastPostedDate: string | null = null;
  for (const { document, postedEntryId } of sales.documents.values()) {
    if (!document.lines.some((l) => l.taxTreatmentCode === treatment)) continue;
    used = true;
    if (postedEntryId && (lastPostedDate === null || document.header.documentDate > lastPostedDate)) lastPostedDate = document.header.documentDate;
  }
  return { used, lastPostedDate };
}

/** The fields an update sends (null, as absent, leaves one unchanged: none of them can be cleared). */
const sent = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;

function taxesCommand<I extends object>(input: z.ZodType<I>, build: (input: I, c: DecisionContext, usage: () => Promise<RateUsage>) => TaxesCommand | Promise<TaxesCommand>, holdSales: boolean): CommandHandler {
  return command({
    input, aggregate: TaxesAggregate, alsoHold: holdSales ? [SalesAggregate] : [],
    decide: async (i, state, c) => {
      const usage = async () => usageOf(await c.held(SalesAggregate), 'id' in i ? state.rates.get(i.id as string)?.code : undefined);
      return decideTaxes(await build(i, c, usage), state, await c.organisation());
    },
    answer: ([event]) => ({ id: (event.data as { taxId: string }).taxId }),
  });
}

// The tax id derives from the code, as the catalogue's rows' do: the rate's Tax and TaxTreatment rows are found by it.
export const createTax = taxesCommand(TaxCreateInput, (i, c) => {
  const { taxType, ...fields } = i;
  return { type: 'CreateSalesTaxRate', taxId: taxIdOf(c.ctx.organisationId, fields.code), taxType: taxType ?? null, fields, now: c.now };
}, false);

export const updateTax = taxesCommand(TaxUpdateInput, async ({ id, taxType, ...changes }, c, usage) => ({ type: 'UpdateSalesTaxRate', taxId: id, taxType: taxType ?? null, changes: sent(changes), usage: await usage(), now: c.now }), true);

export const deleteTax = taxesCommand(TaxDeleteInput, async ({ id }, c, usage) => ({ type: 'DeleteSalesTaxRate', taxId: id, usage: await usage(), now: c.now }), true);
