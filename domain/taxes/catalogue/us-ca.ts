/**
 * United States and Canada: sales tax has no national rate (US state and local taxes; CA GST/HST and
 * provincial PST differ by province), so the catalogue holds none: the organisation sets its own rates
 * (OrganisationSalesTaxRate) and salesTaxTreatment makes each one a treatment the calculation takes.
 */
import { fail } from '../../errors.ts';
import { TaxErrors } from '../errors.ts';
import { treatment, type TaxSystem } from './build.ts';
import type { OrganisationSalesTaxRate, ResolvedTreatment, TaxCatalogue, TaxRate, TaxRounding } from './types.ts';

// Invoice level, per rate, halves up: the Streamlined Sales and Use Tax Agreement § 324 (invoice or item
// level, a half cent or more rounds up); Canada: Excise Tax Act s. 123(1) fractions of a cent, half up.
const ROUNDING: TaxRounding = { level: 'DOCUMENT_PER_RATE', mode: 'HALF_AWAY_FROM_ZERO', source: 'SSUTA § 324; Excise Tax Act (Canada)' };

// US GAAP chart: 2200 Sales Tax Payable (no input tax in US sales tax: the buyer's tax is a cost); CA: 2210
// GST/HST Payable and 1350 GST/HST Receivable (input tax credits).
const SYSTEMS = {
  US: { taxType: 'NOT_SPECIFIED', outputAccountCode: '2200', inputAccountCode: '2200', surcharge: false, cashVat: false, spanishKeys: false },
  CA: { taxType: 'NOT_SPECIFIED', outputAccountCode: '2210', inputAccountCode: '1350', surcharge: false, cashVat: false, spanishKeys: false },
} as const satisfies Record<'US' | 'CA', TaxSystem>;

// SSUTA § 324 allows item level as well, halves up.
const ROUNDING_OPTIONS: readonly TaxRounding[] = [ROUNDING, { ...ROUNDING, level: 'LINE' }];

export const US_TAXES: TaxCatalogue = { country: 'US', rounding: ROUNDING, roundingOptions: ROUNDING_OPTIONS, taxes: [], treatments: [], ratesSetByOrganisation: true, withholdingAccountCode: null };
export const CA_TAXES: TaxCatalogue = { country: 'CA', rounding: ROUNDING, roundingOptions: ROUNDING_OPTIONS, taxes: [], treatments: [], ratesSetByOrganisation: true, withholdingAccountCode: null };

// A percentage from 0 to 100 with at most 4 decimals (the store's scale), as decimal text.
const SALES_TAX_PERCENT = /^\d{1,3}(\.\d{1,4})?$/;

/** The treatment (DOMESTIC, code SALES-<rate code>) that charges an organisation's own sales tax rate. */
export function salesTaxTreatment(country: 'US' | 'CA', salesTax: OrganisationSalesTaxRate): ResolvedTreatment {
  const { code, percentage } = salesTax;
  if (typeof percentage !== 'string' || !SALES_TAX_PERCENT.test(percentage) || Number(percentage) > 100) fail(TaxErrors.invalidSalesTaxRate, { code, percentage: String(percentage) });
  const tax: TaxRate = { code: salesTax.code, name: salesTax.name, taxType: 'NOT_SPECIFIED', group: 'STANDARD', percentage: salesTax.percentage, equivalenceSurchargePercentage: '0', isWithholding: false };
  return { country, treatment: treatment(SYSTEMS[country], 'DOMESTIC', `SALES-${salesTax.code}`, `${salesTax.name} (${salesTax.jurisdiction})`, tax), tax };
}
