/**
 * Which tax treatment a sales line is charged: the product's (an id of the organisation's copy of its
 * country's catalogue), else the domestic one of its tax group, else the country's standard domestic one;
 * replaced by the customer's situation: a customer in another EU country with a VAT number (the document's or
 * the customer's) gets the intra-EU treatment (goods or services); organisation and customer in different
 * countries not both in the EU, the export one (services: outside the scope where the catalogue has it).
 * A line an update leaves untouched keeps the treatment it was recorded with.
 *
 * US/CA: sales tax has no national rate; the organisation sets its own (domain/taxes/sales-tax-rates.ts), at
 * the percentage in force on the document's date: a product naming one of its rates' treatments takes it,
 * else the default rate; a customer abroad the catalogue's EXPORT (not taxed). Until the organisation has a
 * rate a line there is refused, coded, telling it to set one: an untaxed invoice of taxable goods would
 * under-collect in silence.
 */
import type { OrganisationCountry } from '../enums.ts';
import { fail } from '../errors.ts';
import { COUNTRIES } from '../reference/countries.ts';
import { TaxErrors } from '../taxes/errors.ts';
import { SalesErrors } from './errors.ts';
import { organisationTreatment, resolveTreatment, salesTaxTreatmentCode, taxCatalogueFor, taxGroupIdOf, taxOf, taxTreatmentIdOf } from '../taxes/catalogue/index.ts';
import type { ResolvedTreatment, SalesTaxRateInForce } from '../taxes/catalogue/types.ts';
import type { TaxGroupCode, TaxTreatmentKind } from '../taxes/enums.ts';
import { taxGroupsOf } from '../taxes/groups.ts';

const EU = new Set(COUNTRIES.filter((c) => c.viesCode !== null).map((c) => c.isoCodeAlpha2));

export interface LineTaxFacts {
  organisationId: string;
  country: OrganisationCountry;
  /** The customer's country (null: the organisation's, as for a lead). */
  customerCountry: string | null;
  /** The document's VAT number (intra-EU supplies need one). */
  vatNumber: string | null;
  /** The customer has a VAT number on file (its value is sealed; this fact is clear). */
  customerHasVatNumber: boolean;
  /** US/CA: the organisation's own sales tax rates (the Taxes stream); absent or empty: none set. */
  salesTaxRates?: readonly SalesTaxRateInForce[];
  /** The document's date: which percentage of a sales tax rate is in force (absent: the latest). */
  documentDate?: string | null;
}

/** What decides a line's treatment: the product's treatment or tax group, or the treatment recorded before. */
export interface LineTaxSource {
  taxTreatmentId: string | null;
  taxGroupId: string | null;
  isService: boolean;
  /** A line an update does not touch: the treatment code it was recorded with. */
  keptTreatmentCode: string | null;
}

/** The treatment code an organisation's treatment id stands for. */
function codeOfTreatmentId(facts: LineTaxFacts, id: string): string {
  const found = taxCatalogueFor(facts.country).treatments.find((t) => taxTreatmentIdOf(facts.organisationId, t.code) === id);
  return found?.code ?? fail(TaxErrors.taxTreatmentNotFound, { code: id, country: facts.country });
}

/** The treatment a product of `group` is sold at at home: its DOMESTIC one (EXEMPT for the exempt group), the catalogue's first. */
function groupDomestic(country: OrganisationCountry, group: TaxGroupCode): string {
  const catalogue = taxCatalogueFor(country);
  const found = catalogue.treatments.find((t) => (t.kind === 'DOMESTIC' || t.kind === 'EXEMPT') && taxOf(catalogue, t.taxCode)?.group === group);
  return found?.code ?? fail(TaxErrors.taxTreatmentNotFound, { code: group, country });
}

function groupOfId(facts: LineTaxFacts, id: string): TaxGroupCode {
  return taxGroupsOf(facts.country).find((g) => taxGroupIdOf(facts.organisationId, g) === id) ?? fail(TaxErrors.taxGroupNotFound, { id, field: 'taxGroupId' });
}

/** The kinds the customer's situation imposes, the first the catalogue has wins; none: the product's own. */
export function customerTreatmentKinds(facts: LineTaxFacts, isService: boolean): TaxTreatmentKind[] {
  const where = facts.customerCountry;
  if (!where || where === facts.country) return [];
  if (!EU.has(where) || !EU.has(facts.country)) return isService ? ['OUTSIDE_SCOPE', 'EXPORT'] : ['EXPORT'];
  if (facts.vatNumber || facts.customerHasVatNumber) return [isService ? 'INTRA_EU_SERVICES' : 'INTRA_EU_GOODS'];
  return [];
}

/** US/CA: the organisation's rate a line takes: its kept one, the customer's abroad, the product's, else the default. */
function organisationLineTreatment(facts: LineTaxFacts, source: LineTaxSource): ResolvedTreatment {
  const country = facts.country as 'US' | 'CA';
  const rates = facts.salesTaxRates ?? [];
  if (rates.length === 0) fail(SalesErrors.salesTaxRateNotSet, { country });
  const date = facts.documentDate ?? null;
  const byCode = (code: string) => organisationTreatment(country, rates, code, date) ?? resolveTreatment(country, code);
  if (source.keptTreatmentCode) return byCode(source.keptTreatmentCode);
  if (customerTreatmentKinds(facts, source.isService).length > 0) return resolveTreatment(country, 'EXPORT');
  if (source.taxTreatmentId) {
    const own = rates.find((r) => taxTreatmentIdOf(facts.organisationId, salesTaxTreatmentCode(r.code)) === source.taxTreatmentId);
    return byCode(own ? salesTaxTreatmentCode(own.code) : codeOfTreatmentId(facts, source.taxTreatmentId));
  }
  return byCode(salesTaxTreatmentCode((rates.find((r) => r.isDefault) ?? rates[0]).code));
}

export function lineTreatment(facts: LineTaxFacts, source: LineTaxSource): ResolvedTreatment {
  if (taxCatalogueFor(facts.country).ratesSetByOrganisation) return organisationLineTreatment(facts, source);
  if (source.keptTreatmentCode) return resolveTreatment(facts.country, source.keptTreatmentCode);
  const treatments = taxCatalogueFor(facts.country).treatments;
  for (const kind of customerTreatmentKinds(facts, source.isService)) {
    const treatment = treatments.find((t) => t.kind === kind);
    if (treatment) return resolveTreatment(facts.country, treatment.code);
  }
  if (source.taxTreatmentId) return resolveTreatment(facts.country, codeOfTreatmentId(facts, source.taxTreatmentId));
  return resolveTreatment(facts.country, groupDomestic(facts.country, source.taxGroupId ? groupOfId(facts, source.taxGroupId) : 'STANDARD'));
}
