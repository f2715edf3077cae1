/**
 * The sales tariffs' and discount groups' commands, decided on the organisation's Catalog stream (the
 * products their lines name are in the same state, so a line never names a product being deleted).
 */
import type { z } from 'zod';
import { decidePriceLists, type PriceListCommand, type PriceListKind } from '../../domain/catalog/price-lists.ts';
import type { ItemPatch } from '../../domain/parties/sub-collections.ts';
import type { CatalogState } from '../../domain/catalog/products.ts';
import { Errors, fail } from '../../domain/errors.ts';
import { answerInputId, command, defined, type CommandHandler, type DecisionContext } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import { CatalogAggregate } from './aggregates.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SalesDiscountInputs, SalesTariffInputs } from './price-list-inputs.ts';

type Patch = Record<string, unknown>;

/** Sage's value field (indicatorValue, firstDiscount) as the domain's `value`, in lines and their stretches. */
function patches(lines: readonly Patch[] | null | undefined, valueField: string): ItemPatch[] {
  const valued = (p: Patch) => {
    const { [valueField]: value, ...rest } = p;
    return defined({ ...rest, value }) as ItemPatch;
  };
  return (lines ?? []).map((l) => ({ ...valued(l), ...(Array.isArray(l.stretchs) && { stretchs: (l.stretchs as Patch[]).map(valued) }) }));
}

async function decide(kind: PriceListKind, build: (newId: (k: string) => string) => PriceListCommand, state: CatalogState, c: DecisionContext) {
  const organisation = await c.organisation();
  if (!organisation.id) fail(Errors.organisationNotFound);
  // Line and stretch ids: one counter over the command, so each id is the command's i-th (idempotent retries name the same).
  let n = 0;
  const newId = (k: string) => c.newId(k, n++);
  return decidePriceLists(build(newId), state.priceLists, { productExists: (id) => state.products.has(id), newId });
}

function handlers(kind: PriceListKind, inputs: typeof SalesTariffInputs | typeof SalesDiscountInputs, valueField: string): Record<'create' | 'update' | 'delete', CommandHandler> {
  type Create = z.infer<typeof inputs.create> & Record<string, unknown>;
  type Update = z.infer<typeof inputs.update> & Record<string, unknown>;
  return {
    create: command({
      input: inputs.create as z.ZodType<Create>,
      aggregate: CatalogAggregate,
      decide: (i, state, c) => decide(kind, () => ({
        type: 'CreatePriceList', kind, id: c.newId(kind), code: i.code as string, now: c.now,
        header: { name: i.name as string, type: (i.type as never) ?? null, startDate: (i.startDate as string) ?? null, endDate: (i.endDate as string) ?? null, enabled: i.enabled !== false },
        lines: patches(i.lines as Patch[], valueField),
      }), state, c),
      answer: ([event]) => ({ id: (event.data as { priceList: { id: string } }).priceList.id }),
    }),
    update: command({
      input: inputs.update as z.ZodType<Update>,
      aggregate: CatalogAggregate,
      decide: ({ id, lines, replaceAll, ...header }, state, c) => decide(kind, () => ({
        type: 'UpdatePriceList', kind, id: id as string, now: c.now, header: defined(header) as never,
        lines: lines ? patches(lines as Patch[], valueField) : null, replaceAll: replaceAll === true,
      }), state, c),
      answer: answerInputId,
    }),
    // The Parties stream is held: no customer starts naming the list between the check and the append in this
    // process; the organisation's lock held alone, nor in another (party creates and updates share it).
    delete: aloneInOrganisation(command({
      input: inputs.delete,
      aggregate: CatalogAggregate,
      alsoHold: [PartiesAggregate],
      decide: async ({ id }, state, c) => {
        const usedByCustomers = (await c.held(PartiesAggregate)).usage.has(id);
        return decide(kind, () => ({ type: 'DeletePriceList', kind, id, usedByCustomers, now: c.now }), state, c);
      },
      answer: answerInputId,
    })),
  };
}

export const SALES_TARIFF_HANDLERS = handlers('salesTariff', SalesTariffInputs, 'indicatorValue');
export const SALES_DISCOUNT_HANDLERS = handlers('salesDiscount', SalesDiscountInputs, 'firstDiscount');
