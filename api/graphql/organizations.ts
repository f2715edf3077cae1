/**
 * Sage's `organizations` root and `organizationById(id: ID!)`: the organisations read model seen as Sage's
 * Organization. A view, not a table of its own: each organisation is the one row of its own organisation
 * (organisation_id = id), so the query builder's organisation scope answers the caller's organisation and
 * nothing else, as for any organisation-scoped list. A token serves one organisation (api/auth/request.ts),
 * so that one is all `organizations` lists, even for a user who belongs to others.
 */
import { f, type Resource } from '../../projections/engine/resource.ts';

/** Sage's organisation status; an organisation is served from its creation, so always READY here. */
export const ORGANIZATION_ENUMS = { OrganizationStatus: ['READY'] } as const;

export const Organization: Resource = {
  typeName: 'Organization',
  // (Read only by the query builder, as `FROM <table> t`.)
  table: `(SELECT o.id AS organisation_id, o.id, o.name, o.country, o.creation_date, 'READY'::text AS status, true AS onboarding_completed FROM organisations o)`,
  scope: 'organisation',
  fields: [
    f.uuid('id'),
    f.string('socialName', { column: 'name' }),
    f.string('legislationCode', { column: 'country' }),
    f.enum('status', 'OrganizationStatus', ORGANIZATION_ENUMS.OrganizationStatus),
    f.bool('onboardingCompleted'),
    f.dateTime('creationDate'),
    // Organisations have no update yet: last modified when created.
    f.dateTime('modificationDate', { column: 'creation_date' }),
    f.absent('tenantId', 'UUID'),
    f.absent('documentTypeId', 'UUID'),
  ],
  query: { field: 'organizations', connection: 'OrganizationsConnection', byId: 'organizationById' },
  defaultOrder: ['socialName'],
};
