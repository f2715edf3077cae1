/**
 * Sales tariffs and sales discount groups as read models, in Sage's shape (sage-names.md §5): the list, its
 * lines and each line's stretchs, the value under Sage's name (a tariff's indicatorValue, a discount
 * group's firstDiscount). Lines and stretches are child tables rewritten whole with each event (the
 * events carry their dates).
 */
import { SalesTariffType } from '../../domain/catalog/enums.ts';
import { f, type Field, type Resource } from '../engine/resource.ts';
import { Product } from './read-models.ts';

const audit = () => [f.dateTime('creationDate'), f.dateTime('modificationDate')];
const period = () => [f.dateTime('startDate'), f.dateTime('endDate')];

function priceList(typeName: string, table: string, query: { field: string; connection: string; byId: string }, valueField: string, extra: Field[]) {
  const stretch: Resource = {
    typeName: `${typeName}Stretch`, table: `${table}_stretchs`, scope: 'organisation', indexes: [['line_id'], ['price_list_id']],
    fields: [...audit(), f.decimal('fromUnits'), f.uuid('id'), f.decimal(valueField), f.decimal('toUnits'), f.uuid('lineId', { hidden: true }), f.uuid('priceListId', { hidden: true }), f.int('position', { hidden: true })],
  };
  const line: Resource = {
    typeName: `${typeName}Line`, table: `${table}_lines`, scope: 'organisation', indexes: [['price_list_id']],
    fields: [
      ...audit(), f.bool('enabled'), f.uuid('id'), f.decimal(valueField), ...period(),
      f.ref('product', 'Product', () => Product, 'productId'), f.uuid('productId'),
      f.children('stretchs', stretch.typeName, () => stretch, 'lineId', 'position'),
      f.uuid('priceListId', { hidden: true }), f.int('position', { hidden: true }),
    ],
  };
  const list: Resource = {
    typeName, table, scope: 'organisation', query, indexes: [['organisation_id', 'code']], defaultOrder: ['code'],
    fields: [
      f.string('code'), ...audit(), f.bool('enabled'), f.uuid('id'), f.children('lines', line.typeName, () => line, 'priceListId', 'position'),
      f.string('name'), ...period(), ...extra,
    ],
  };
  return { list, line, stretch };
}

export const SalesTariffModels = priceList('SalesTariff', 'sales_tariffs', { field: 'salesTariffs', connection: 'SalesTariffsConnection', byId: 'salesTariffById' }, 'indicatorValue', [f.enum('type', 'SalesTariffType', SalesTariffType)]);
/** Sage's node of salesDiscounts is SalesDiscountGroup (Customer.salesDiscountGroup is one). */
export const SalesDiscountModels = priceList('SalesDiscountGroup', 'sales_discounts', { field: 'salesDiscounts', connection: 'SalesDiscountsConnection', byId: 'salesDiscountById' }, 'firstDiscount', []);

export const PRICE_LIST_RESOURCES: Resource[] = [SalesTariffModels, SalesDiscountModels].flatMap((m) => [m.list, m.line, m.stretch]);
