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
import { day, invalid, named } from './input.ts';
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

/** The last day a date can name: nothing comes after it. */
const LAST_DAY = '9999-12-31';
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/**
 * The input checked and turned into the list's where, order and page, before any reading: `env` (the organisation
 * read) is asked only by a filter that depends on today or the country.
 */
export async function listRequest(input: ListExecuteInput, env: () => Promise<ListEnvironment>) {
  const list = contextOf(input.entityKey);
  const chosen = named(list.filters, input.filterName, 'filterName');
  let filter = typeof chosen === 'function' ? chosen(await env()) : chosen;
  const order = named(list.orderBy, input.orderByName, 'orderByName');
  const search = input.search ?? null;
  const wantsSearch = JSON.stringify(filter).includes(SEARCH);
  if (wantsSearch && (search == null || search === '')) throw invalid('search', `filter ${JSON.stringify(input.filterName)} searches: send the text to search`);
  if (!wantsSearch && search != null) throw invalid('search', `filter ${JSON.stringify(input.filterName)} does not search`);
  if (search != null && search.length > MAX_SEARCH) throw invalid('search', `at most ${MAX_SEARCH} characters`);
  if (search != null) filter = searched(filter, search) as Filter;
  // Each bound given is its own condition (the builder checks neither: they are days already).
  const dates = { min: input.dateMin == null ? null : day(input.dateMin, 'dateMin'), max: input.dateMax == null ? null : day(input.dateMax, 'dateMax') };
  if (dates.min != null || dates.max != null) {
    if (!list.dateRange) throw invalid(dates.min != null ? 'dateMin' : 'dateMax', `${list.entityKey} has no date range (supportsDateRange false)`);
    if (dates.min != null && dates.max != null && dates.max < dates.min) throw invalid('dateMax', `${dates.max} is before dateMin ${dates.min}`);
    filter = { and: [filter, list.dateRange(dates.min == null ? null : `${dates.min}T00:00:00.000Z`, dates.max == null || dates.max === LAST_DAY ? null : nextDay(dates.max))] };
  }
  const first = input.first ?? PAGING.defaultPageSize;
  if (!Number.isInteger(first) || first < 0 || first > PAGING.maxPageSize) throw invalid('first', `${first}: 0 to ${PAGING.maxPageSize} rows a page`);
  return { list, input, filter, order, first, dates, search };
}

export async function listExecute(db: pg.PoolClient, organisationId: string, request: Awaited<ReturnType<typeof listRequest>>) {
  const { list, input, filter, order, first, dates, search } = request;
  let page;
  try {
    page = await listQuery(db, list.resource, organisationId, { where: filter, order: order as Filter[], first, after: input.after ?? null });
  } catch (e) {
    // The catalog's filters are well formed and the dates checked: what the builder refuses is the cursor or, in a
    // searching filter, the searched value; anything else is ours (not the caller's input).
    if (e instanceof QueryInputError && /cursor/.test(e.message)) throw invalid('after', e.message);
    if (e instanceof QueryInputError && search != null) throw invalid('search', e.message);
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
