/**
 * The country's tax catalogue installed with the organisation (OrganisationCreated), as settings installs its
 * document types: reference data in code, each row with the id derived from the organisation's. A document
 * records the rates it used in its own events, so a later catalogue change never rewrites its history; an
 * organisation created before this projection existed gets its rows when the projection is built. A US/CA
 * organisation's own sales tax rates (the Taxes stream) join them as rows of the same shape: a Tax in the
 * STANDARD group and its DOMESTIC treatment posting to the organisation's country's sales tax payable account
 * (read with the batch: organisation-countries.ts), as its invoices post, never by the jurisdiction's prefix.
 */
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { derivedId } from '../../domain/ids.ts';
import { salesTaxTreatment, salesTaxTreatmentCode, taxCatalogueFor, taxGroupIdOf, taxIdOf, taxOf, taxTreatmentIdOf } from '../../domain/taxes/catalogue/index.ts';
import type { TaxTreatmentDefinition } from '../../domain/taxes/catalogue/types.ts';
import { TAX_GROUP_NAMES, taxGroupsOf } from '../../domain/taxes/groups.ts';
import type { TaxesEvent } from '../../domain/taxes/sales-tax-rates.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { projectionsOf, type Projection, type TableOf } from '../engine/projection.ts';
import type { Writes } from '../engine/writes.ts';
import type { TaxGroupCode } from '../../domain/taxes/enums.ts';
import { OrganisationCountries } from './organisation-countries.ts';
import { Tax, TaxGroup, TaxTreatment, TAX_RESOURCES } from './read-models.ts';

const org = (e: RecordedEvent) => e.metadata.organisationId as string;
const countries = new OrganisationCountries();

export const taxesProjection: Projection = {
  name: 'taxes',
  resources: TAX_RESOURCES,
  eventTypes: ['OrganisationCreated', 'SalesTaxRateCreated', 'SalesTaxRateUpdated', 'SalesTaxRateDeleted'],
  // 2: US/CA organisations' STANDARD group and EXPORT treatment (issue 18). 3: a rate's account by the organisation's country.
  revision: 3,
  prepare: (events, client) => countries.prepare(events.filter((e) => e.type === 'SalesTaxRateCreated' || e.type === 'SalesTaxRateUpdated'), client, org),
  apply(event, w, t) {
    if (event.type !== 'OrganisationCreated') return applySalesTaxRate({ type: event.type, data: event.data } as TaxesEvent, org(event), w, t, () => countries.of(event) as 'US' | 'CA');
    const e = { type: event.type, data: event.data } as OrganisationEvent;
    if (e.type !== 'OrganisationCreated') return;
    const organisationId = org(event);
    const { country, at } = e.data;
    const id = e.data.organisationId;
    const dates = { creationDate: at, modificationDate: at };
    for (const group of taxGroupsOf(country)) {
      w.insert(TaxGroup, t(TaxGroup), { organisationId, id: taxGroupIdOf(id, group), code: group, name: TAX_GROUP_NAMES[group], ...dates });
    }
    const catalogue = taxCatalogueFor(country);
    for (const tax of catalogue.taxes) {
      const { code, name, taxType, percentage, equivalenceSurchargePercentage, group } = tax;
      w.insert(Tax, t(Tax), { organisationId, id: taxIdOf(id, code), code, name, taxType, percentage, equivalenceSurchargePercentage, taxGroupId: taxGroupIdOf(id, group), groupName: TAX_GROUP_NAMES[group], ...dates });
    }
    for (const treatment of catalogue.treatments) w.insert(TaxTreatment, t(TaxTreatment), treatmentRow(organisationId, treatment, taxOf(catalogue, treatment.taxCode)!.group, dates));
  },
};

type Dates = { creationDate?: string; modificationDate: string };

function treatmentRow(organisationId: string, treatment: TaxTreatmentDefinition, group: TaxGroupCode, dates: Dates) {
  const { outputAccountCode, inputAccountCode, ...fields } = treatment;
  const account = (code: string) => derivedId(organisationId, 'account', code);
  return {
    ...fields, organisationId, id: taxTreatmentIdOf(organisationId, treatment.code), inactive: false,
    taxGroupId: taxGroupIdOf(organisationId, group), taxGroupName: TAX_GROUP_NAMES[group],
    outputAccountingAccountId: account(outputAccountCode), inputAccountingAccountId: account(inputAccountCode), ...dates,
  };
}

/** An organisation's own rate as a Tax row and its treatment's row (percentage: the latest, whatever its validFrom). */
function applySalesTaxRate(e: TaxesEvent, organisationId: string, w: Writes, t: TableOf, countryOf: () => 'US' | 'CA'): void {
  const taxId = e.data.taxId;
  const treatmentId = taxTreatmentIdOf(organisationId, salesTaxTreatmentCode(e.data.code));
  if (e.type === 'SalesTaxRateDeleted') {
    w.delete(Tax, t(Tax), { id: taxId });
    w.delete(TaxTreatment, t(TaxTreatment), { id: treatmentId });
    return;
  }
  const { treatment, tax } = salesTaxTreatment(countryOf(), e.data);
  const dates: Dates = e.type === 'SalesTaxRateCreated' ? { creationDate: e.data.at, modificationDate: e.data.at } : { modificationDate: e.data.at };
  const { code, name, taxType, percentage, equivalenceSurchargePercentage } = tax;
  const taxRow = { code, name, taxType, percentage, equivalenceSurchargePercentage, taxGroupId: taxGroupIdOf(organisationId, tax.group), groupName: TAX_GROUP_NAMES[tax.group], ...dates };
  const treatmentFields = treatmentRow(organisationId, treatment, tax.group, dates);
  if (e.type === 'SalesTaxRateCreated') {
    w.insert(Tax, t(Tax), { organisationId, id: taxId, ...taxRow });
    w.insert(TaxTreatment, t(TaxTreatment), treatmentFields);
    return;
  }
  w.update(Tax, t(Tax), { id: taxId }, taxRow);
  const { organisationId: _o, id: _i, ...changed } = treatmentFields;
  w.update(TaxTreatment, t(TaxTreatment), { id: treatmentId }, changed);
}

export const PROJECTIONS = projectionsOf(import.meta.url, [taxesProjection]);
