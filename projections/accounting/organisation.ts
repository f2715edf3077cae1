/** Organisations as the API needs them (country for DE_FORBIDDEN and OAuth regions, subscribed features). */
import { OrganisationCountry } from '../../domain/enums.ts';
import { f, type Resource } from '../engine/resource.ts';

export const Organisation: Resource = {
  typeName: 'Organisation',
  table: 'organisations',
  scope: 'global',
  fields: [
    f.uuid('id'),
    f.string('name'),
    f.enum('country', 'OrganisationCountry', OrganisationCountry),
    f.string('baseCurrency'),
    f.string('features'),
    f.dateTime('creationDate'),
  ],
};
