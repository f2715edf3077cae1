/**
 * The country's tax catalogue installed with the organisation (OrganisationCreated), as settings installs its
 * document types: reference data in code, each row with the id derived from the organisation's. A document
 * records the rates it used in its own events, so a later catalogue change never rewrites its history; an
 * organisation created before this projection existed gets its rows when the projection is built.
 */
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { derivedId } from '../../domain/ids.ts';
import { taxCatalogueFor, taxGroupIdOf, taxIdOf, taxOf, taxTreatmentIdOf } from '../../domain/taxes/catalogue/index.ts';
import { TAX_GROUP_NAMES, taxGroupsOf } from '../../domain/taxes/groups.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { projectionsOf, type Projection } from '../engine/projection.ts';
import { Tax, TaxGroup, TaxTreatment, TAX_RESOURCES } from './read-models.ts';

const org = (e: RecordedEvent) => e.metadata.organisationId as string;

export const taxesProjection: Projection = {
  name: 'taxes',
  resources: TAX_RESOURCES,
  eventTypes: ['OrganisationCreated'],
  apply(event, w, t) {
    const e = { type: event.type, data: event.data } as OrganisationEvent;
    if (e.type !== 'OrganisationCreated') return;
    const organisationId = org(event);
    const { country, at } = e.data;
    const id = e.data.organisationId;
    const dates = { creationDate: at, modificationDate: at };
    const account = (code: string) => derivedId(id, 'account', code);
    for (const group of taxGroupsOf(country)) {
      w.insert(TaxGroup, t(TaxGroup), { organisationId, id: taxGroupIdOf(id, group), code: group, name: TAX_GROUP_NAMES[group], ...dates });
    }
    const catalogue = taxCatalogueFor(country);
    for (const tax of catalogue.taxes) {
      const { code, name, taxType, percentage, equivalenceSurchargePercentage, group } = tax;
      w.insert(Tax, t(Tax), { organisationId, id: taxIdOf(id, code), code, name, taxType, percentage, equivalenceSurchargePercentage, taxGroupId: taxGroupIdOf(id, group), groupName: TAX_GROUP_NAMES[group], ...dates });
    }
    for (const treatment of catalogue.treatments) {
      const { outputAccountCode, inputAccountCode, ...fields } = treatment;
      const group = taxOf(catalogue, treatment.taxCode)!.group;
      w.insert(TaxTreatment, t(TaxTreatment), {
        ...fields, organisationId, id: taxTreatmentIdOf(id, treatment.code), inactive: false,
        taxGroupId: taxGroupIdOf(id, group), taxGroupName: TAX_GROUP_NAMES[group],
        outputAccountingAccountId: account(outputAccountCode), inputAccountingAccountId: account(inputAccountCode), ...dates,
      });
    }
  },
};

export const PROJECTIONS = projectionsOf(import.meta.url, [taxesProjection]);
