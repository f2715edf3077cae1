/**
 * United States and Canada: sales tax has no national rate (US state and local taxes; CA GST/HST and
 * provincial PST differ by province), so the catalogue holds none: the organisation sets its own rates
 * (OrganisationSalesTaxRate) and salesTaxTreatment makes each one a treatment the calculation takes.
 */
import { fail } from '../../errors.ts';
import { TaxErrors } from '../errors.ts';
import { treatment, type TaxSystem } from './build.ts';
import type { OrganisationSalesTaxRate, ResolvedTreatment, SalesTaxRateInForce, TaxCatalogue, TaxRate, TaxRounding } from './types.ts';

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

// A sale to a customer abroad is not taxed (US: sales tax is the destination state's; CA: a zero-rated export,
// Excise Tax Act Sch. VI Part V): the one rate the catalogue holds.
const EXPORT_TAX: TaxRate = { code: 'EXPORT0', name: 'Export (not taxed)', taxType: 'NOT_SPECIFIED', group: 'EXEMPT', percentage: '0', equivalenceSurchargePercentage: '0', isWithholding: false };
const exported = (country: 'US' | 'CA'): Pick<TaxCatalogue, 'taxes' | 'treatments'> => ({ taxes: [EXPORT_TAX], treatments: [treatment(SYSTEMS[country], 'EXPORT', 'EXPORT', 'Export sale', EXPORT_TAX)] });

export const US_TAXES: TaxCatalogue = { country: 'US', rounding: ROUNDING, roundingOptions: ROUNDING_OPTIONS, ...exported('US'), ratesSetByOrganisation: true, withholdingAccountCode: null };
export const CA_TAXES: TaxCatalogue = { country: 'CA', rounding: ROUNDING, roundingOptions: ROUNDING_OPTIONS, ...exported('CA'), ratesSetByOrganisation: true, withholdingAccountCode: null };

/** The treatment code of an organisation's sales tax rate `code`. */
export const salesTaxTreatmentCode = (code: string): string => `SALES-${code}`;

/** The output account of an organisation's sales tax treatments (every rate of a country posts to one). */
export const salesTaxOutputAccountCode = (country: 'US' | 'CA'): string => SYSTEMS[country].outputAccountCode;

/** The percentage of `rate` in force on `date` (null date, or before its first change: its first percentage). */
export function percentageOn(rate: SalesTaxRateInForce, date: string | null): string {
  const applying = date === null ? rate.history.at(-1) : rate.history.filter((h) => h.validFrom === null || h.validFrom <= date).at(-1);
  return (applying ?? rate.history[0]).percentage;
}

/** The treatment of the organisation's rate whose treatment code is `treatmentCode`, at `date`; undefined when none. */
export function organisationTreatment(country: 'US' | 'CA', rates: readonly SalesTaxRateInForce[], treatmentCode: string, date: string | null): ResolvedTreatment | undefined {
  const rate = rates.find((r) => salesTaxTreatmentCode(r.code) === treatmentCode);
  return rate && salesTaxTreatment(country, { ...rate, percentage: percentageOn(rate, date) });
}

// A percentage from 0 to 100 with at most 4 decimals (the store's scale), as decimal text.
const SALES_TAX_PERCENT = /^\d{1,3}(\.\d{1,4})?$/;

/** The treatment (DOMESTIC, code SALES-<rate code>) that charges an organisation's own sales tax rate. */
export function salesTaxTreatment(country: 'US' | 'CA', salesTax: OrganisationSalesTaxRate): ResolvedTreatment {
  const { code, percentage } = salesTax;
  if (typeof percentage !== 'string' || !SALES_TAX_PERCENT.test(percentage) || Number(percentage) > 100) fail(TaxErrors.invalidSalesTaxRate, { code, percentage: String(percentage) });
  const tax: TaxRate = { code: salesTax.code, name: salesTax.name, taxType: 'NOT_SPECIFIED', group: 'STANDARD', percentage: salesTax.percentage, equivalenceSurchargePercentage: '0', isWithholding: false };
  return { country, treatment: treatment(SYSTEMS[country], 'DOMESTIC', salesTaxTreatmentCode(salesTax.code), `${salesTax.name} (${salesTax.jurisdiction})`, tax), tax };
}
