/**
 * Identity document types a party's `documentId` can be (the spec's DocumentType): the ones every
 * country has, plus the country's own (Spain's SII identification types, France's SIREN/SIRET...).
 * Installed with the organisation (ids derived from the organisation id and the code), so parties can
 * refer to them from the first command on and rebuilds give the same ids.
 */
import type { OrganisationCountry } from '../enums.ts';
import { derivedId } from '../ids.ts';

export interface DocumentTypeDefinition {
  code: string;
  name: string;
}

const COMMON: DocumentTypeDefinition[] = [
  { code: 'VAT', name: 'VAT identification number' },
  { code: 'PASSPORT', name: 'Passport' },
  { code: 'NATIONAL_ID', name: 'Official identity document of the country of residence' },
  { code: 'RESIDENCE_CERTIFICATE', name: 'Certificate of tax residence' },
  { code: 'OTHER', name: 'Other supporting document' },
];

const BY_COUNTRY: Record<OrganisationCountry, DocumentTypeDefinition[]> = {
  ES: [{ code: 'NIF', name: 'NIF (Número de identificación fiscal)' }, { code: 'NIE', name: 'NIE (Número de identidad de extranjero)' }, { code: 'NOT_REGISTERED', name: 'No censado' }],
  FR: [{ code: 'SIREN', name: 'SIREN' }, { code: 'SIRET', name: 'SIRET' }],
  DE: [{ code: 'STEUERNUMMER', name: 'Steuernummer' }, { code: 'HANDELSREGISTER', name: 'Handelsregisternummer' }],
  GB: [{ code: 'CRN', name: 'Company registration number' }, { code: 'UTR', name: 'Unique taxpayer reference' }],
  IE: [{ code: 'CRO', name: 'CRO number' }, { code: 'PPSN', name: 'Personal public service number' }],
  US: [{ code: 'EIN', name: 'Employer identification number' }, { code: 'SSN', name: 'Social security number' }],
  CA: [{ code: 'BN', name: 'Business number' }, { code: 'SIN', name: 'Social insurance number' }],
};

/** The organisation's document types: each carries the legislation it belongs to (Sage's legislationCode). */
export function documentTypesFor(country: OrganisationCountry): (DocumentTypeDefinition & { legislationCode: OrganisationCountry })[] {
  return [...BY_COUNTRY[country], ...COMMON].map((type) => ({ ...type, legislationCode: country }));
}

export const documentTypeId = (organisationId: string, code: string) => derivedId(organisationId, 'document-type', code);
