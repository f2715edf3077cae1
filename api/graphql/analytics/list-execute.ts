/**
 * listExecute (breadth §4): a list's rows under one named filter and order of its catalog entry, optionally
 * searched (filters with %%SEARCH%% need `search`; others refuse it) and dated (dateMin..dateMax, days included,
 * only where supportsDateRange), a page at a time: `first` (default 20, at most 500) rows after the cursor
 * `after`, with totalCount and pageInfo. The rows are the resource's fields as JSON (its GraphQL node, hidden
 * columns left out), read by the lists' own query builder, so the filters, orders, counts and paging are the
 * connection's.
 */
import type pg from 'pg';
import { storedFields } from '../../../projections/engine/resource.ts';
import { PAGING, QueryInputError, listQuery } from '../query-builder.ts';
import { dayRange, invalid, named } from './input.ts';
import { LIST_CONTEXTS, SEARCH, UNSERVED_LISTS, type Filter, type ListContext, type ListEnvironment } from './list-catalog.ts';

export interface ListExecuteInput {
  entityKey: string;
  filterName: string;
  orderByName: string;
  search?: string | null;
  dateMin?: string | null;
  dateMax?: string | null;
  first?: number | null;
  after?: string | null;
}

const MAX_SEARCH = 200;

function contextOf(entityKey: string): ListContext {
  const found = LIST_CONTEXTS.find((c) => c.entityKey === entityKey);
  if (found) return found;
  const why = Object.hasOwn(UNSERVED_LISTS, entityKey) ? UNSERVED_LISTS[entityKey] : 'listCatalog lists them';
  throw invalid('entityKey', `${JSON.stringify(entityKey.slice(0, 100))}: unknown list (${why})`);
}

/** The filter with every %%SEARCH%% replaced by `search`. */
function searched(value: unknown, search: string): unknown {
  if (value === SEARCH) return search;
  if (Array.isArray(value)) return value.map((v) => searched(v, search));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, searched(v, search)]));
  return value;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

export async function listExecute(db: pg.PoolClient, organisationId: string, input: ListExecuteInput, env: () => Promise<ListEnvironment>) {
  const list = contextOf(input.entityKey);
  let filter = named(list.filters, input.filterName, 'filterName')(await env());
  const order = named(list.orderBy, input.orderByName, 'orderByName');
  const search = input.search ?? null;
  const wantsSearch = JSON.stringify(filter).includes(SEARCH);
  if (wantsSearch && (search == null || search === '')) throw invalid('search', `filter ${JSON.stringify(input.filterName)} searches: send the text to search`);
  if (!wantsSearch && search != null) throw invalid('search', `filter ${JSON.stringify(input.filterName)} does not search`);
  if (search != null && search.length > MAX_SEARCH) throw invalid('search', `at most ${MAX_SEARCH} characters`);
  if (search != null) filter = searched(filter, search) as Filter;
  let dates = { min: null as string | null, max: null as string | null };
  if (input.dateMin != null || input.dateMax != null) {
    if (!list.dateRange) throw invalid(input.dateMin != null ? 'dateMin' : 'dateMax', `${list.entityKey} has no date range (supportsDateRange false)`);
    const range = dayRange(input.dateMin ?? '0001-01-01', input.dateMax ?? '9999-12-30');
    filter = { and: [filter, list.dateRange(`${range.min}T00:00:00.000Z`, nextDay(range.max))] };
    dates = { min: input.dateMin == null ? null : range.min, max: input.dateMax == null ? null : range.max };
  }
  const first = input.first ?? PAGING.defaultPageSize;
  if (!Number.isInteger(first) || first < 0 || first > PAGING.maxPageSize) throw invalid('first', `${first}: 0 to ${PAGING.maxPageSize} rows a page`);
  let page;
  try {
    page = await listQuery(db, list.resource, organisationId, { where: filter, order: order as Filter[], first, after: input.after ?? null });
  } catch (e) {
    // The catalog's filters are well formed: what the builder refuses is the cursor or the searched value.
    if (e instanceof QueryInputError) throw invalid(/cursor/.test(e.message) ? 'after' : 'search', e.message);
    throw e;
  }
  const hidden = storedFields(list.resource).filter((f) => f.hidden).map((f) => f.name);
  const rows = page.nodes.map((node) => {
    const row = { ...node };
    for (const name of hidden) delete row[name];
    return row;
  });
  return {
    meta: { entityKey: list.entityKey, context: list.context, filterName: input.filterName, orderByName: input.orderByName, dateMin: dates.min, dateMax: dates.max, search },
    rows,
    totalCount: page.totalCount,
    pageInfo: { hasNextPage: page.pageInfo.hasNextPage, endCursor: page.pageInfo.endCursor },
  };
}
