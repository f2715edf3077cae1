/** The tax catalogue of every country the service serves, and the ids an organisation's copy gets. */
import { assert, fail } from '../../errors.ts';
import { derivedId } from '../../ids.ts';
import type { OrganisationCountry } from '../../enums.ts';
import { TaxErrors } from '../errors.ts';
import { DE_TAXES } from './de.ts';
import { ES_TAXES } from './es.ts';
import { FR_TAXES } from './fr.ts';
import { GB_TAXES } from './gb.ts';
import { IE_TAXES } from './ie.ts';
import { CA_TAXES, US_TAXES } from './us-ca.ts';
import type { ResolvedTreatment, TaxCatalogue, TaxRate } from './types.ts';

export { organisationTreatment, percentageOn, salesTaxOutputAccountCode, salesTaxTreatment, salesTaxTreatmentCode } from './us-ca.ts';

export const TAX_CATALOGUES: Readonly<Record<OrganisationCountry, TaxCatalogue>> = Object.freeze({
  ES: ES_TAXES, FR: FR_TAXES, DE: DE_TAXES, GB: GB_TAXES, IE: IE_TAXES, US: US_TAXES, CA: CA_TAXES,
});

export function taxCatalogueFor(country: OrganisationCountry): TaxCatalogue {
  return TAX_CATALOGUES[country];
}

// Ids of an organisation's copy, derived like its chart's accounts (derivedId(org, 'account', code)):
// the same catalogue installed twice, or replayed, gives the same ids.
export const taxIdOf = (organisationId: string, taxCode: string): string => derivedId(organisationId, 'tax', taxCode);
export const taxTreatmentIdOf = (organisationId: string, treatmentCode: string): string => derivedId(organisationId, 'tax-treatment', treatmentCode);
export const taxGroupIdOf = (organisationId: string, group: string): string => derivedId(organisationId, 'tax-group', group);

export function taxOf(catalogue: TaxCatalogue, code: string): TaxRate | undefined {
  return catalogue.taxes.find((t) => t.code === code);
}

/** The treatment `code` of the country with the rate it charges; a coded error when the country has none. */
export function resolveTreatment(country: OrganisationCountry, code: string): ResolvedTreatment {
  const catalogue = taxCatalogueFor(country);
  const treatment = catalogue.treatments.find((t) => t.code === code);
  if (!treatment) return fail(TaxErrors.taxTreatmentNotFound, { code, country });
  const tax = taxOf(catalogue, treatment.taxCode);
  assert(tax, `${country} treatment ${code} charges unknown tax ${treatment.taxCode}`);
  return { country, treatment, tax };
}

/** A catalogue's own consistency: unique codes, every treatment's tax present, zero rates off DOMESTIC. */
export function catalogueProblems(catalogue: TaxCatalogue): string[] {
  const problems: string[] = [];
  const duplicates = (codes: string[]) => codes.filter((c, i) => codes.indexOf(c) !== i);
  for (const code of duplicates(catalogue.taxes.map((t) => t.code))) problems.push(`tax ${code} twice`);
  for (const code of duplicates(catalogue.treatments.map((t) => t.code))) problems.push(`treatment ${code} twice`);
  for (const t of catalogue.treatments) {
    const tax = taxOf(catalogue, t.taxCode);
    if (!tax) problems.push(`treatment ${t.code}: no tax ${t.taxCode}`);
    else if (t.kind !== 'DOMESTIC' && tax.percentage !== '0') problems.push(`treatment ${t.code} (${t.kind}) charges ${tax.percentage} %`);
    else if (tax.isWithholding) problems.push(`treatment ${t.code} charges withholding ${tax.code}`);
  }
  return problems;
}

for (const catalogue of Object.values(TAX_CATALOGUES)) {
  const problems = catalogueProblems(catalogue);
  assert(problems.length === 0, `${catalogue.country} tax catalogue: ${problems.join('; ')}`);
}
