/**
 * Product.salesVatPercentage: the rate a domestic sale of the product is charged, by the very choice a sales
 * line makes for a customer at home (domain/sales/line-tax.ts): the product's tax treatment, else its tax
 * group's domestic one, else the country's standard one.
 */
import { STOCKLESS_CATEGORIES, type ProductCategory } from '../../domain/catalog/enums.ts';
import { lineTreatment } from '../../domain/sales/line-tax.ts';
import type { ReadingOrganisation } from '../engine/resource.ts';

export function domesticSalesVatPercentage(product: Record<string, unknown>, organisation: ReadingOrganisation): string | null {
  try {
    const { tax } = lineTreatment(
      { organisationId: organisation.id, country: organisation.country, customerCountry: null, vatNumber: null, customerHasVatNumber: false },
      {
        taxTreatmentId: (product.taxTreatmentId as string | null) ?? null,
        taxGroupId: (product.taxGroupId as string | null) ?? null,
        isService: STOCKLESS_CATEGORIES.includes(product.category as ProductCategory),
        keptTreatmentCode: null,
      },
    );
    return tax.percentage;
  } catch {
    // A treatment or group the country's catalogue no longer has: no rate to state (a line would be refused).
    return null;
  }
}
