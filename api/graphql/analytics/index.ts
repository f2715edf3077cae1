/**
 * Sage's generic aggregation and list roots (breadth §4; spec §2.4 output types): the catalogs are static, the
 * executions read the read models under the caller's organisation (row-level security, and every statement
 * names the organisation as well).
 */
import type pg from 'pg';
import { OrganisationAggregate } from '../../../commands/accounting/aggregates.ts';
import type { OrganisationState } from '../../../domain/accounting/organisation.ts';
import type { QuerySpec } from '../../../modules/module.ts';
import { AGGREGATION_CONTEXTS, definitionOf } from './aggregation-catalog.ts';
import { aggregationExecute, type AggregationExecuteInput } from './aggregation-execute.ts';
import { containing } from './input.ts';
import { LIST_CONTEXTS, listDefinitionOf } from './list-catalog.ts';
import { listExecute, listRequest, type ListExecuteInput } from './list-execute.ts';

const ANALYTICS_SDL = `
"aggregationExecute's input (Sage's names): the names are those aggregationCatalog lists for the entity key."
input AggregationExecuteDtoInput {
  entityKey: String!
  "SUM, AVG, MIN, MAX, COUNT or DISTINCTCOUNT."
  aggregationType: String!
  "Day, Week, Month, Quarter, Year or None."
  periodType: String!
  "First day, included."
  dateMin: DateTime!
  "Last day, included."
  dateMax: DateTime!
  "Beside the same range one year earlier (valueN, valueN_1, deltaPercent)."
  compare: Boolean
  "-1 no ranking (the default), 0 all groups ranked by valueColumn1, N the first N groups."
  top: Int
  "With top N: one more row aggregating the other groups."
  includeOthers: Boolean
  othersLabel: String
  "Default: the context's first filter."
  filterName: String
  "Default: None."
  groupByName: String
  "Default: the context's first value column (for SUM, AVG, MIN and MAX)."
  valueColumn1: String
  valueColumn2: String
  "What DISTINCTCOUNT counts (default: the context's first)."
  distinctCountName: String
  search: String
  "Default: the context's first search scope."
  searchScope: String
}

"listExecute's input (Sage's names): the names are those listCatalog lists for the entity key."
input ListExecuteDtoInput {
  entityKey: String!
  filterName: String!
  orderByName: String!
  "The text a filter with %%SEARCH%% searches for."
  search: String
  "First day, included (lists that support a date range)."
  dateMin: DateTime
  "Last day, included."
  dateMax: DateTime
  "Rows a page: 20 by default, at most 500."
  first: Int
  "The endCursor of the previous page."
  after: String
}`;

const ANALYTICS_ROOT_FIELDS = `
  aggregationCatalog(contextContains: String): AggregationCatalogResponse!
  aggregationExecute(input: AggregationExecuteDtoInput!): AggregationExecuteResponse!
  listCatalog(contextContains: String): ListCatalogResponse!
  listExecute(input: ListExecuteDtoInput!): ListExecuteResponse!`;

const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * What one analytics statement may take (explicit, not the server's default of none): a costly aggregation ends
 * with an error instead of holding a connection and a core for minutes.
 */
export const ANALYTICS_STATEMENT_TIMEOUT = '10s';

const limited = <T>(fn: (db: pg.PoolClient) => Promise<T>) => async (db: pg.PoolClient) => {
  await db.query(`SET LOCAL statement_timeout = '${ANALYTICS_STATEMENT_TIMEOUT}'`);
  return fn(db);
};

export const ANALYTICS: QuerySpec = {
  sdl: ANALYTICS_SDL,
  rootFields: ANALYTICS_ROOT_FIELDS,
  resolvers: {
    aggregationCatalog: (args: { contextContains?: string | null }) => ({ definitions: containing(AGGREGATION_CONTEXTS, args.contextContains).map(definitionOf) }),
    aggregationExecute: (args: { input: AggregationExecuteInput }, ctx) => ctx.read(limited((db) => aggregationExecute(db, ctx.caller.organisationId, args.input))),
    listCatalog: (args: { contextContains?: string | null }) => ({ definitions: containing(LIST_CONTEXTS, args.contextContains).map(listDefinitionOf) }),
    listExecute: async (args: { input: ListExecuteInput }, ctx) => {
      // The organisation is read (cached as a rule) before the read transaction opens, and only for a filter that needs it.
      const request = await listRequest(args.input, async () => {
        const organisation = ctx.services.aggregates.cached<OrganisationState>(OrganisationAggregate, ctx.caller.organisationId) ?? (await ctx.services.organisation(ctx.caller.organisationId));
        return { today: today(ctx.now), country: organisation.country ?? null };
      });
      return ctx.read(limited((db) => listExecute(db, ctx.caller.organisationId, request)));
    },
  },
};
