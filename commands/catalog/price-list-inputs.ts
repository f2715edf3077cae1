/**
 * Inputs of the sales tariffs' and discount groups' mutations. Both have the same shape but for the name of
 * a line's and a stretch's value (a tariff's indicatorValue, a discount group's firstDiscount); updates send
 * lines and stretches with `id` and `requestedAction`, as parties' lists (domain/parties/sub-collections.ts).
 */
import { z } from 'zod';
import { SalesTariffType } from '../../domain/catalog/enums.ts';
import { gql, named } from '../input-types.ts';
import { ENUM_SCHEMAS } from '../parties/inputs.ts';
import { PRICE_LIST_LIMITS } from '../../domain/catalog/price-lists.ts';

const date = z.iso.date();
const unchangedIfNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
const itemUpdate = { id: gql.uuid.nullish(), requestedAction: ENUM_SCHEMAS.RequestedAction.nullish() };
const period = { startDate: date.nullish(), endDate: date.nullish() };

/** The GraphQL type prefix ('SalesTariff', 'SalesDiscount') and the name of the value field. */
function priceListInputs<V extends string>(prefix: string, valueField: V, extra: Record<string, z.ZodType>, extraUpdate: Record<string, z.ZodType>) {
  const value = { [valueField]: gql.decimal.nullish() } as unknown as Record<V, z.ZodType>;
  const stretch = z.object({ fromUnits: gql.decimal, toUnits: gql.decimal, ...value });
  const line = z.object({ productId: gql.uuid, ...period, enabled: z.boolean().nullish(), ...value, stretchs: z.array(stretch).max(PRICE_LIST_LIMITS.maxStretchs).nullish() });
  const stretchUpdate = named(`${prefix}StretchUpdateGLDtoInput`, stretch.partial().extend(itemUpdate));
  const lineUpdate = named(`${prefix}LineUpdateGLDtoInput`, line.partial().extend({ ...itemUpdate, stretchs: z.array(stretchUpdate).max(PRICE_LIST_LIMITS.maxStretchs).nullish() }));
  const header = { name: z.string().trim().min(1).max(200), ...period, enabled: z.boolean().nullish() };
  return {
    create: named(`${prefix}CreateGLDtoInput`, z.object({
      code: z.string().min(1).max(30), ...header, ...extra,
      lines: z.array(named(`${prefix}LineCreateGLDtoInput`, line.extend({ stretchs: z.array(named(`${prefix}StretchCreateGLDtoInput`, stretch)).max(PRICE_LIST_LIMITS.maxStretchs).nullish() }))).max(PRICE_LIST_LIMITS.maxLines).nullish(),
    })),
    update: named(`${prefix}UpdateGLDtoInput`, z.object({
      id: gql.uuid, name: unchangedIfNull(header.name), startDate: period.startDate, endDate: period.endDate, enabled: unchangedIfNull(z.boolean()), ...extraUpdate,
      lines: z.array(lineUpdate).max(PRICE_LIST_LIMITS.maxLines).nullish(),
      /** The lines sent (created or modified) become the whole list. */
      replaceAll: z.boolean().nullish(),
    })),
    delete: named(`${prefix}DeleteGLDtoInput`, z.object({ id: gql.uuid })),
  };
}

const tariffType = gql.enumOf('SalesTariffType', SalesTariffType);
export const SalesTariffInputs = priceListInputs('SalesTariff', 'indicatorValue', { type: tariffType.nullish() }, { type: unchangedIfNull(tariffType) });
export const SalesDiscountInputs = priceListInputs('SalesDiscount', 'firstDiscount', {}, {});
