/**
 * Tax groups: the rate classes a product names (Sage's taxGroupId). A group holds every tax of the country in
 * that class (ES STANDARD: IVA 21 % and IGIC 7 %; the territory picks one), so a product's `taxes` is a list.
 */
import { fail } from '../errors.ts';
import type { OrganisationCountry } from '../enums.ts';
import { taxCatalogueFor, taxGroupIdOf } from './catalogue/index.ts';
import type { TaxGroupCode } from './enums.ts';
import { TaxErrors } from './errors.ts';

/** Each group's name, as Sage's Tax.groupName shows it. */
export const TAX_GROUP_NAMES: Readonly<Record<TaxGroupCode, string>> = {
  STANDARD: 'Standard',
  REDUCED: 'Reduced',
  SECOND_REDUCED: 'Second reduced',
  SUPER_REDUCED: 'Super reduced',
  ZERO: 'Zero',
  INCREASED: 'Increased',
  SPECIAL_INCREASED: 'Special increased',
  EXEMPT: 'Exempt',
  WITHHOLDING: 'Withholding',
};

/** The groups a country's taxes fall in, in the catalogue's order, each once (US/CA: STANDARD first, the organisation's own rates'). */
export function taxGroupsOf(country: OrganisationCountry): TaxGroupCode[] {
  const catalogue = taxCatalogueFor(country);
  const own: TaxGroupCode[] = catalogue.ratesSetByOrganisation ? ['STANDARD'] : [];
  return [...new Set([...own, ...catalogue.taxes.map((t) => t.group)])];
}

/** A product's tax group must be one of its organisation's (the rows installed with it); null names none. */
export function checkTaxGroup(organisationId: string, country: OrganisationCountry, id: string | null | undefined, field = 'taxGroupId'): void {
  if (!id) return;
  if (!taxGroupsOf(country).some((group) => taxGroupIdOf(organisationId, group) === id)) fail(TaxErrors.taxGroupNotFound, { id, field });
}
