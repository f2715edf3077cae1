/** The Catalog's price list events into the sales tariffs' and discount groups' read models. */
import { kindOfEvent, type PriceList, type PriceListEvent } from '../../domain/catalog/price-lists.ts';
import type { Resource } from '../engine/resource.ts';
import type { Writes } from '../engine/writes.ts';
import { SalesDiscountModels, SalesTariffModels } from './price-list-models.ts';

const MODELS = { salesTariff: { models: SalesTariffModels, valueField: 'indicatorValue' }, salesDiscount: { models: SalesDiscountModels, valueField: 'firstDiscount' } } as const;

export function applyPriceList(e: PriceListEvent, organisationId: string, w: Writes, t: (r: Resource) => string): void {
  const { models: m, valueField } = MODELS[kindOfEvent(e.type)];
  const id = 'priceList' in e.data ? e.data.priceList.id : e.data.priceListId;
  w.delete(m.stretch, t(m.stretch), { priceListId: id });
  w.delete(m.line, t(m.line), { priceListId: id });
  if (!('priceList' in e.data)) return w.delete(m.list, t(m.list), { id });
  // A discount group has no type column (its type is always null).
  const { lines, type, ...rest }: PriceList = e.data.priceList;
  const header = kindOfEvent(e.type) === 'salesTariff' ? { ...rest, type } : rest;
  if (e.type.endsWith('Created')) w.insert(m.list, t(m.list), { ...header, organisationId });
  else w.update(m.list, t(m.list), { id }, { ...header });
  lines.forEach(({ stretchs, value, ...line }, i) => {
    w.insert(m.line, t(m.line), { ...line, [valueField]: value, organisationId, priceListId: id, position: i });
    stretchs.forEach(({ value: v, ...s }, j) => w.insert(m.stretch, t(m.stretch), { ...s, [valueField]: v, organisationId, lineId: line.id, priceListId: id, position: j }));
  });
}
