/**
 * Date bounds implied by a parent a row is dated within (Resource.datedWithin): an entry's date lies between its
 * period's (and its exercise's) first and last days. Lists filtered on a period and a period's close state them, so
 * PostgreSQL walks the (organisation_id, date, ...) index over the period's days instead of the whole ledger.
 * The bounds only narrow: the statement keeps its own condition on the parent, so it finds the same rows.
 */
import { columnOf, storedField, type Resource } from './resource.ts';

/**
 * A date is stored at UTC midnight, or, in rows an older version wrote on a server outside UTC (until a rebuild, as
 * the README asks after upgrading), at that server's midnight: never more than 14 hours away, the widest zone's offset.
 */
const MIDNIGHT_SPREAD = "interval '14 hours'";

/**
 * `on >= first day AND on <= last day` of the parents whose ids are in `idsParam` (a uuid[] parameter), for a
 * statement on `resource`'s table aliased `alias` (or unaliased). The parent's table is the live one, unqualified:
 * its rows' dates never change, so a rebuild or a replay may read it.
 */
export function datedWithinBounds(resource: Resource, parentField: string, idsParam: string, organisationParam: string, alias = ''): string[] {
  const within = resource.datedWithin;
  if (!within || !Object.hasOwn(within.parents, parentField)) throw new Error(`${resource.typeName} is not dated within ${parentField}`);
  const parent = within.parents[parentField]();
  const on = `${alias ? `${alias}.` : ''}${columnOf(resource, within.on)}`;
  return [`${on} >= ${parentBound(parent, 'startDate', idsParam, organisationParam)}`, `${on} <= ${parentBound(parent, 'endDate', idsParam, organisationParam)}`];
}

/** Whether `field` names a parent `resource` is dated within. */
export const isDatedWithin = (resource: Resource, field: string): boolean => Object.hasOwn(resource.datedWithin?.parents ?? {}, field);

/**
 * The earliest start or latest end of the parents named, or no bound at all (-infinity, infinity) unless every one
 * has its row: a rebuild of the entries alone can run ahead of the projection that writes the periods, and their
 * entries must still be found.
 */
function parentBound(parent: Resource, field: 'startDate' | 'endDate', idsParam: string, organisationParam: string): string {
  const [edge, shift, unbounded] = field === 'startDate' ? ['min', '-', '-infinity'] : ['max', '+', 'infinity'];
  return `(SELECT CASE WHEN bool_and(p.id IS NOT NULL) THEN ${edge}(p.${storedField(parent, field).column}) ${shift} ${MIDNIGHT_SPREAD} ELSE '${unbounded}' END
    FROM unnest(${idsParam}::uuid[]) AS named(id) LEFT JOIN ${parent.table} p ON p.id = named.id AND p.organisation_id = ${organisationParam})`;
}
