/**
 * A document's lines and amounts from its line specs: each line's treatment (line-tax.ts), the customer's
 * discount compounded with the line's firstDiscount (to the cent, by domain/taxes), the document's IRPF
 * withholding on its service lines, and the taxes and totals of domain/taxes, recorded in the event with the
 * rounding used.
 */
import type { OrganisationCountry } from '../enums.ts';
import { calculateDocumentTaxes } from '../taxes/calculate.ts';
import { taxGroupIdOf, taxIdOf, taxTreatmentIdOf } from '../taxes/catalogue/index.ts';
import type { SalesTaxRateInForce } from '../taxes/catalogue/types.ts';
import type { SalesAmounts, SalesHeader, SalesLine } from './events.ts';
import type { LineSpec } from './lines.ts';
import { lineTreatment } from './line-tax.ts';

export interface AmountFacts {
  organisationId: string;
  country: OrganisationCountry;
  customerCountry: string | null;
  customerHasVatNumber: boolean;
  precision: number;
  /** US/CA: the organisation's own sales tax rates. */
  salesTaxRates?: readonly SalesTaxRateInForce[];
}

export function priced(specs: readonly LineSpec[], header: SalesHeader, facts: AmountFacts): { lines: SalesLine[]; amounts: SalesAmounts } {
  const taxFacts = { organisationId: facts.organisationId, country: facts.country, customerCountry: facts.customerCountry, vatNumber: header.vatNumber, customerHasVatNumber: facts.customerHasVatNumber, salesTaxRates: facts.salesTaxRates, documentDate: header.documentDate };
  const treatments = specs.map((s) => lineTreatment(taxFacts, s));
  const taxes = calculateDocumentTaxes({
    country: facts.country,
    precision: facts.precision,
    hasEquivalenceSurcharge: header.hasEquivalenceSurcharge,
    // IRPF is withheld on professional services (RIRPF art. 101.5.a), never on a delivery of goods.
    withholdingPercentage: header.withholdingPercentage ?? undefined,
    lines: specs.map((s, i) => ({
      quantity: s.totalQuantity, unitPrice: s.unitPrice, discountPercent: s.firstDiscount, secondDiscountPercent: header.customerDiscount,
      taxTreatment: treatments[i], isService: s.isService, subjectToWithholding: s.isService, givenAmounts: s.givenAmounts,
    })),
  });
  const lines = specs.map((s, i): SalesLine => {
    const { treatment, tax } = treatments[i];
    const a = taxes.lines[i];
    return {
      lineId: s.lineId, order: i + 1, productId: s.productId, productCode: s.productCode, productName: s.productName,
      totalQuantity: s.totalQuantity, unitPrice: s.unitPrice, unitPriceSource: s.unitPriceSource, firstDiscount: s.firstDiscount, firstDiscountSource: s.firstDiscountSource,
      taxTreatmentId: taxTreatmentIdOf(facts.organisationId, treatment.code), taxTreatmentCode: treatment.code,
      taxId: taxIdOf(facts.organisationId, tax.code), taxGroupId: taxGroupIdOf(facts.organisationId, tax.group),
      vatPercentage: a.vatPercentage, equivalenceSurchargePercentage: a.equivalenceSurchargePercentage, withholdingPercentage: a.withholdingPercentage,
      isService: s.isService, totalGross: a.totalGross, totalDiscount: a.totalDiscount, totalNet: a.totalNet,
      origin: s.origin, creditedLineId: s.creditedLineId,
    };
  });
  return { lines, amounts: { rounding: { level: taxes.rounding.level, mode: taxes.rounding.mode }, taxes: taxes.taxes, withholdings: taxes.withholdings, totals: taxes.totals } };
}
