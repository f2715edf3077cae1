/**
 * The schemas REST routes declare (api/openapi.ts: they describe; paging.ts and the zod bodies check):
 * the paging parameters, the paged object of spec 8.2, an id in the path, and Sage errors for 4xx and 5xx.
 */
import { ORGANISATION_HEADERS, SAGE_ERRORS, TOKEN_SECURITY } from '../openapi.ts';
import { REST_PAGING } from './paging.ts';

type Schema = Record<string, unknown>;

export const PAGE_QUERY = (limits = { defaultPerPage: REST_PAGING.defaultItemsPerPage, maxPerPage: REST_PAGING.maxItemsPerPage }) => ({
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1, description: 'Decimal digits; a page past the end answers the last page.' },
    items_per_page: { type: 'integer', minimum: 1, default: limits.defaultPerPage, description: `Decimal digits; more than ${limits.maxPerPage} answers ${limits.maxPerPage}.` },
  },
});

export const ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Anything but a UUID is 404 RecordNotFound.' } },
};

const link = { type: ['string', 'null'], description: 'The path of the next (or previous) page with the same items_per_page; null at the end.' };

/** The paged object of spec 8.2 around items of the given schema. */
export function pagedSchema(item: Schema): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['$total', '$page', '$next', '$back', '$itemsPerPage', '$items'],
    properties: {
      $total: { type: 'integer', minimum: 0 },
      $page: { type: 'integer', minimum: 1 },
      $next: link,
      $back: link,
      $itemsPerPage: { type: 'integer', minimum: 1 },
      $items: { type: 'array', items: item },
    },
  };
}

/** A REST route's schema: its tag, the token and organisation header, its answers and Sage errors for the rest. */
export function restRoute(tag: string, summary: string, schema: { params?: Schema; querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema {
  return {
    tags: [tag],
    summary,
    security: TOKEN_SECURITY,
    headers: ORGANISATION_HEADERS,
    ...schema,
    response: { ...schema.response, '4xx': SAGE_ERRORS, '5xx': SAGE_ERRORS },
  };
}
