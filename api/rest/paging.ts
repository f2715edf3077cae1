/**
 * REST paging (spec 4.2, 7.3, 8.2): `page` and `items_per_page` read strictly, and the paged object.
 * Numbers are decimal digits only and held to safe integers, so no request makes an offset the database
 * cannot take; a page past the end is the last page, however large the number sent.
 */
import type { FastifyReply } from 'fastify';
import { sageError } from './errors.ts';

export const REST_PAGING = Object.freeze({ defaultItemsPerPage: 20, maxItemsPerPage: 200 });

export interface PageRequest {
  /** As asked, at most Number.MAX_SAFE_INTEGER; `pageWithin` brings it to the last page. */
  page: number;
  perPage: number;
}

/** `fallback` when absent or empty; undefined when not a positive integer in decimal digits. */
function positiveInteger(raw: unknown, fallback: number): number | undefined {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 ? Math.min(n, Number.MAX_SAFE_INTEGER) : undefined;
}

/** The page asked for, items_per_page capped at `maxPerPage`; on bad input answers 400 and returns undefined. */
export function requestedPage(query: unknown, reply: FastifyReply, limits = { defaultPerPage: REST_PAGING.defaultItemsPerPage, maxPerPage: REST_PAGING.maxItemsPerPage }): PageRequest | undefined {
  const q = (query ?? {}) as Record<string, unknown>;
  const perPage = positiveInteger(q.items_per_page, limits.defaultPerPage);
  if (perPage === undefined) {
    sageError(reply, 400, 'InvalidParameter', 'items_per_page must be a positive integer (decimal digits).', 'items_per_page');
    return undefined;
  }
  const page = positiveInteger(q.page, 1);
  if (page === undefined) {
    sageError(reply, 400, 'InvalidParameter', 'page must be a positive integer (decimal digits).', 'page');
    return undefined;
  }
  return { page, perPage: Math.min(perPage, limits.maxPerPage) };
}

export const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** The page to answer: the one asked for, or the last when it is past the end. */
export const pageWithin = (asked: PageRequest, total: number) => Math.min(asked.page, lastPage(total, asked.perPage));

/** The paged object of spec 8.2; `$next`/`$back` repeat the path with page and items_per_page. */
export function pagedBody<T>(path: string, total: number, page: number, perPage: number, items: T[]) {
  const last = lastPage(total, perPage);
  const link = (p: number) => `${path}?page=${p}&items_per_page=${perPage}`;
  return { $total: total, $page: page, $next: page < last ? link(page + 1) : null, $back: page > 1 ? link(page - 1) : null, $itemsPerPage: perPage, $items: items };
}
