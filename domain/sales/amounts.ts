/**
 * A document's lines and amounts from its line specs: each line's treatment (line-tax.ts), the customer's
 * discount compounded with the line's firstDiscount, and the taxes and totals of domain/taxes, recorded in
 * the event with the rounding used. The compounded discount keeps the four decimals the calculation takes.
 */
import { Decimal } from '../money.ts';
import type { OrganisationCountry } from '../enums.ts';
import { calculateDocumentTaxes } from '../taxes/calculate.ts';
import { taxGroupIdOf, taxIdOf, taxTreatmentIdOf } from '../taxes/catalogue/index.ts';
import type { SalesAmounts, SalesHeader, SalesLine } from './events.ts';
import type { LineSpec } from './lines.ts';
import { lineTreatment } from './line-tax.ts';

export interface AmountFacts {
  organisationId: string;
  country: OrganisationCountry;
  customerCountry: string | null;
  precision: number;
}

/** 1 - (1 - a)(1 - b), in percent, to four decimals. */
function compounded(first: string, customer: string): string {
  const rest = new Decimal(1).minus(new Decimal(first).div(100)).times(new Decimal(1).minus(new Decimal(customer).div(100)));
  return new Decimal(100).minus(rest.times(100)).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toString();
}

export function priced(specs: readonly LineSpec[], header: SalesHeader, facts: AmountFacts): { lines: SalesLine[]; amounts: SalesAmounts } {
  const taxFacts = { organisationId: facts.organisationId, country: facts.country, customerCountry: facts.customerCountry, vatNumber: header.vatNumber };
  const treatments = specs.map((s) => lineTreatment(taxFacts, s.taxTreatmentId, s.isService));
  const taxes = calculateDocumentTaxes({
    country: facts.country,
    precision: facts.precision,
    hasEquivalenceSurcharge: header.hasEquivalenceSurcharge,
    lines: specs.map((s, i) => ({ quantity: s.totalQuantity, unitPrice: s.unitPrice, discountPercent: compounded(s.firstDiscount, header.customerDiscount), taxTreatment: treatments[i], isService: s.isService })),
  });
  const lines = specs.map((s, i): SalesLine => {
    const { treatment, tax } = treatments[i];
    const a = taxes.lines[i];
    return {
      lineId: s.lineId, order: i + 1, productId: s.productId, productCode: s.productCode, productName: s.productName,
      totalQuantity: s.totalQuantity, unitPrice: s.unitPrice, firstDiscount: s.firstDiscount,
      taxTreatmentId: taxTreatmentIdOf(facts.organisationId, treatment.code), taxTreatmentCode: treatment.code,
      taxId: taxIdOf(facts.organisationId, tax.code), taxGroupId: taxGroupIdOf(facts.organisationId, tax.group),
      vatPercentage: a.vatPercentage, equivalenceSurchargePercentage: a.equivalenceSurchargePercentage, withholdingPercentage: a.withholdingPercentage,
      isService: s.isService, totalGross: a.totalGross, totalDiscount: a.totalDiscount, totalNet: a.totalNet,
      origin: s.origin, creditedLineId: s.creditedLineId,
    };
  });
  return { lines, amounts: { rounding: { level: taxes.rounding.level, mode: taxes.rounding.mode }, taxes: taxes.taxes, withholdings: taxes.withholdings, totals: taxes.totals } };
}
