/**
 * Sage's `productPriceById(id: ID!, productPrice: ProductPriceGLDtoInput!): ComputedSalesPriceGLDto`: the
 * price, first discount and tax a sales line of the product would get (domain/catalog/product-price.ts),
 * decided on the Catalog's current state; the customer's tariff, discount group, country, VAT number and
 * recargo are read from the customers' read model. documentTypeId is accepted and not used (our prices do not
 * depend on the document kind). An id that is not one of the organisation's products answers null.
 */
import type pg from 'pg';
import { z } from 'zod';
import { GraphQLError } from 'graphql';
import { computedSalesPrice, type PricedCustomer } from '../../domain/catalog/product-price.ts';
import { BusinessError, fail } from '../../domain/errors.ts';
import { SalesErrors } from '../../domain/sales/errors.ts';
import { CatalogAggregate } from '../../commands/catalog/aggregates.ts';
import type { CommandServices } from '../../commands/services.ts';
import { gql } from '../../commands/input-types.ts';
import { parse } from '../../commands/handler.ts';
import { localize, type Language } from '../i18n.ts';
import { readScoped } from '../read-scope.ts';

export const PRODUCT_PRICE_SDL = `
input ProductPriceGLDtoInput {
  documentDate: DateTime!
  quantity: Decimal!
  customerId: UUID
  documentTypeId: UUID
  salesTariffId: UUID
  salesDiscountGroupId: UUID
}

type ComputedUnitPriceGLDto {
  code: String
  indicator: String
  name: String
  source: String
  value: Decimal!
}

type ComputedDiscountGLDto {
  code: String
  name: String
  source: String
  value: Decimal!
}

type ComputedSalesPriceGLDto {
  equivalenceSurchargePercentage: Decimal!
  firstDiscount: ComputedDiscountGLDto
  price: ComputedUnitPriceGLDto
  taxGroupId: UUID!
  taxId: UUID!
  taxPercentage: Decimal!
  taxTreatmentId: UUID!
}`;

export const PRODUCT_PRICE_ROOT_FIELDS = `
  productPriceById(id: ID!, productPrice: ProductPriceGLDtoInput!): ComputedSalesPriceGLDto`;

const ProductPriceInput = z.object({
  id: gql.uuid,
  documentDate: z.string().regex(/^\d{4}-\d{2}-\d{2}/).pipe(z.string().transform((d) => d.slice(0, 10))).pipe(z.iso.date()),
  quantity: gql.decimal,
  customerId: gql.uuid.nullish(),
  documentTypeId: gql.uuid.nullish(),
  salesTariffId: gql.uuid.nullish(),
  salesDiscountGroupId: gql.uuid.nullish(),
});

async function customerOf(pool: pg.Pool, organisationId: string, id: string): Promise<PricedCustomer> {
  const { rows } = await readScoped(pool, organisationId, (db) => db.query(
    `SELECT country_acronym, vat_number, has_equivalence_surcharge, sales_tariff_id, sales_discount_group_id FROM customers WHERE organisation_id = $1 AND id = $2`,
    [organisationId, id],
  ));
  const row = rows[0] ?? fail(SalesErrors.customerNotFound, { id });
  return { country: row.country_acronym, vatNumber: row.vat_number, hasEquivalenceSurcharge: row.has_equivalence_surcharge === true, salesTariffId: row.sales_tariff_id, salesDiscountGroupId: row.sales_discount_group_id };
}

export async function productPriceById(pool: pg.Pool, services: CommandServices, organisationId: string, args: { id: unknown; productPrice: Record<string, unknown> }, language: Language) {
  try {
    const q = parse(ProductPriceInput, { ...args.productPrice, id: args.id });
    const [organisation, { state: catalog }] = await Promise.all([services.organisation(organisationId), services.aggregates.load(CatalogAggregate, organisationId)]);
    if (!organisation.id || !organisation.country) return null;
    const customer = q.customerId ? await customerOf(pool, organisationId, q.customerId) : null;
    return computedSalesPrice({ productId: q.id, documentDate: q.documentDate, quantity: q.quantity, salesTariffId: q.salesTariffId, salesDiscountGroupId: q.salesDiscountGroupId }, { organisationId, country: organisation.country, catalog, customer });
  } catch (e) {
    if (e instanceof BusinessError) throw new GraphQLError(localize(e.code, e.params, language), { extensions: { code: e.code, parameters: e.params } });
    throw e;
  }
}
