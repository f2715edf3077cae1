/**
 * Date bounds implied by a parent a row is dated within (Resource.datedWithin): an entry's date lies between its
 * period's (and its exercise's) first and last days. Lists filtered on a period and a period's close state them, so
 * PostgreSQL walks the (organisation_id, date, ...) index over the period's days instead of the whole ledger.
 * The bounds only narrow: the statement keeps its own condition on the parent, so it finds the same rows.
 */
import { columnOf, storedField, type Resource } from './resource.ts';

/**
 * How far a stored date may be from the parent's stored first or last day. A date is stored at UTC midnight, or, in
 * rows an older version wrote on a server outside UTC (until a rebuild, as the README asks after upgrading), at that
 * server's midnight, at most 14 hours away. A read allows that much (`read`); a write, whose result stays, allows for
 * the row and its parent written in two different zones (`write`: 12 + 14 hours), at the cost of a day more walked.
 */
export const MIDNIGHT_SPREAD = Object.freeze({ read: "interval '14 hours'", write: "interval '26 hours'" });

export interface BoundsOptions {
  /** The statement's alias for the resource's table, if any. */
  alias?: string;
  /** The schema, with its dot, the statement's tables are in (a replay's `replay_x.`), if not the live one. */
  schemaPrefix?: string;
  spread: string;
}

/**
 * `on >= first day AND on <= last day` of the parents whose ids are in `idsParam` (a uuid[] parameter). The parent's
 * table is the live one unless `schemaPrefix` names another: a parent's dates never change, so a rebuild may read it.
 */
export function datedWithinBounds(resource: Resource, parentField: string, idsParam: string, organisationParam: string, options: BoundsOptions): string[] {
  const within = resource.datedWithin;
  if (!within || !Object.hasOwn(within.parents, parentField)) throw new Error(`${resource.typeName} is not dated within ${parentField}`);
  const parent = within.parents[parentField]();
  const on = `${options.alias ? `${options.alias}.` : ''}${columnOf(resource, within.on)}`;
  const bound = (field: 'startDate' | 'endDate') => parentBound(parent, field, idsParam, organisationParam, options);
  return [`${on} >= ${bound('startDate')}`, `${on} <= ${bound('endDate')}`];
}

/** Whether `field` names a parent `resource` is dated within. */
export const isDatedWithin = (resource: Resource, field: string): boolean => Object.hasOwn(resource.datedWithin?.parents ?? {}, field);

/**
 * The earliest start or latest end of the parents named, or no bound at all (-infinity, infinity) unless every one
 * has its row: a rebuild of the entries alone can run ahead of the projection that writes the periods, and their
 * entries must still be found.
 */
function parentBound(parent: Resource, field: 'startDate' | 'endDate', idsParam: string, organisationParam: string, options: BoundsOptions): string {
  const [edge, shift, unbounded] = field === 'startDate' ? ['min', '-', '-infinity'] : ['max', '+', 'infinity'];
  const column = `p.${storedField(parent, field).column}`;
  return `(SELECT CASE WHEN bool_and(${column} IS NOT NULL) THEN ${edge}(${column}) ${shift} ${options.spread} ELSE '${unbounded}' END
    FROM unnest(${idsParam}::uuid[]) AS named(id) LEFT JOIN ${options.schemaPrefix ?? ''}${parent.table} p ON p.id = named.id AND p.organisation_id = ${organisationParam})`;
}
