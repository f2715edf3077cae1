/**
 * Which tax treatment a sales line is charged: the product's (an id of the organisation's copy of its
 * country's catalogue) or the country's standard domestic one, replaced by the customer's situation: a
 * customer in another EU country with a VAT number gets the intra-EU treatment (goods or services), a
 * customer outside the EU the export one.
 */
import type { OrganisationCountry } from '../enums.ts';
import { fail } from '../errors.ts';
import { COUNTRIES } from '../reference/countries.ts';
import { TaxErrors } from '../taxes/errors.ts';
import { resolveTreatment, taxCatalogueFor, taxTreatmentIdOf } from '../taxes/catalogue/index.ts';
import type { ResolvedTreatment } from '../taxes/catalogue/types.ts';
import type { TaxTreatmentKind } from '../taxes/enums.ts';

const EU = new Set(COUNTRIES.filter((c) => c.viesCode !== null).map((c) => c.isoCodeAlpha2));

export interface LineTaxFacts {
  organisationId: string;
  country: OrganisationCountry;
  /** The customer's country (null: the organisation's, as for a lead). */
  customerCountry: string | null;
  /** The document's VAT number (intra-EU supplies need one). */
  vatNumber: string | null;
}

/** The treatment code an organisation's treatment id stands for. */
function codeOfTreatmentId(facts: LineTaxFacts, id: string): string {
  const found = taxCatalogueFor(facts.country).treatments.find((t) => taxTreatmentIdOf(facts.organisationId, t.code) === id);
  return found?.code ?? fail(TaxErrors.taxTreatmentNotFound, { code: id, country: facts.country });
}

function standardDomestic(country: OrganisationCountry): string {
  const catalogue = taxCatalogueFor(country);
  const standard = catalogue.treatments.find((t) => t.kind === 'DOMESTIC' && catalogue.taxes.find((x) => x.code === t.taxCode)?.group === 'STANDARD');
  return standard?.code ?? fail(TaxErrors.taxTreatmentNotFound, { code: 'STANDARD', country });
}

/** The kind the customer's situation imposes, if any. */
export function customerTreatmentKind(facts: LineTaxFacts, isService: boolean): TaxTreatmentKind | null {
  const where = facts.customerCountry;
  if (!where || where === facts.country) return null;
  if (!EU.has(where)) return 'EXPORT';
  if (EU.has(facts.country) && facts.vatNumber) return isService ? 'INTRA_EU_SERVICES' : 'INTRA_EU_GOODS';
  return null;
}

export function lineTreatment(facts: LineTaxFacts, productTreatmentId: string | null, isService: boolean): ResolvedTreatment {
  const imposed = customerTreatmentKind(facts, isService);
  if (imposed) {
    const treatment = taxCatalogueFor(facts.country).treatments.find((t) => t.kind === imposed);
    if (treatment) return resolveTreatment(facts.country, treatment.code);
  }
  return resolveTreatment(facts.country, productTreatmentId ? codeOfTreatmentId(facts, productTreatmentId) : standardDomestic(facts.country));
}
