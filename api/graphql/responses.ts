/**
 * How /graphql answers errors, following the GraphQL-over-HTTP specification, the same for every kind of error:
 *
 * - Media type: `application/graphql-response+json` when the Accept header prefers it (listed with q > 0, and not
 *   after an equally weighted application/json), otherwise `application/json` (also without an Accept header).
 * - With `application/json`, every response to a well-formed request is 200, whatever errors it holds: parse
 *   errors, validation errors (one or many), a cost refusal (HC0047 and the depth and alias limits), nesting and
 *   token limits, authentication and authorization errors, business errors.
 * - With `application/graphql-response+json`, a response without `data` (the request was refused before
 *   execution: parse, validation, variables, cost, limits) is 400; one with `data` (executed, even if `data` is
 *   null: authentication, authorization and business errors are field errors) is 200.
 * - A request that is not well-formed HTTP (a body that is not JSON, no `query`, a media type or size refused,
 *   a mutation over GET) keeps its 4xx; a server failure is 500 and says nothing about its cause.
 *
 * Every error carries `extensions.code`. An error that is not one of ours (a database error, a bug) is logged with
 * the request id and answered as INTERNAL_SERVER_ERROR with a generic message: no internal text reaches clients.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';

export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

type MediaType = typeof GRAPHQL_RESPONSE_JSON | 'application/json';

function qualities(accept: string): Map<string, { q: number; order: number }> {
  const out = new Map<string, { q: number; order: number }>();
  accept.split(',').forEach((part, order) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (type && !out.has(type)) out.set(type, { q: q === undefined ? 1 : Number(q) || 0, order });
  });
  return out;
}

/** The media type of the response to `request` (see above). */
export function responseMediaType(request: FastifyRequest): MediaType {
  const accept = request.headers.accept;
  if (!accept) return 'application/json';
  const q = qualities(accept);
  const preferred = q.get(GRAPHQL_RESPONSE_JSON);
  if (!preferred || preferred.q <= 0) return 'application/json';
  const json = q.get('application/json');
  if (json && (json.q > preferred.q || (json.q === preferred.q && json.order < preferred.order))) return 'application/json';
  return GRAPHQL_RESPONSE_JSON;
}

/** Status of a response holding only errors (refused before execution) or, with `executed`, data and errors. */
export function errorStatus(request: FastifyRequest, executed: boolean): number {
  return executed || responseMediaType(request) === 'application/json' ? 200 : 400;
}

const INTERNAL_MESSAGE = 'The request could not be completed because of an error in the service; it has been logged. Retry later, or report the request id.';

/** Fastify's and mercurius' refusals of a request that is not well-formed: their messages describe the request. */
function transportStatus(error: unknown): number | undefined {
  const e = error as { statusCode?: unknown; code?: unknown } | null;
  if (typeof e?.statusCode !== 'number' || e.statusCode < 400 || e.statusCode >= 500) return undefined;
  return typeof e.code === 'string' && /^(FST_|MER_ERR_)/.test(e.code) ? e.statusCode : undefined;
}

const transportCode = (status: number) => (status === 405 ? 'METHOD_NOT_ALLOWED' : 'BAD_REQUEST');

interface Presented {
  error: GraphQLError;
  /** A 4xx of a request that is not well-formed, or 500 for a server failure. */
  status?: number;
}

/** One error as clients see it: a code always, internal causes hidden (and logged). */
function present(error: GraphQLError, request: FastifyRequest, executed: boolean): Presented[] {
  const original = error.originalError as (Error & { errors?: unknown; code?: unknown }) | undefined;
  // mercurius wraps the errors of parsing, validation and variables (MER_ERR_GQL_VALIDATION) in one error.
  if (original && Array.isArray(original.errors)) {
    const status = transportStatus(original);
    return original.errors.flatMap((inner: unknown) => {
      if (inner instanceof GraphQLError) return present(inner, request, executed);
      // Not a GraphQL error: the body's schema (no query) or variables that are not JSON.
      return [{ error: new GraphQLError((inner as Error).message, { extensions: { code: transportCode(status ?? 400) } }), status: status ?? 400 }];
    });
  }
  if (typeof error.extensions?.code === 'string') return [{ error }];
  const status = transportStatus(original);
  if (status !== undefined) {
    return [{ error: new GraphQLError(error.message, { extensions: { code: transportCode(status) } }), status }];
  }
  // graphql-js's own refusals of a document or its variables (no cause of ours): the message describes the request.
  if ((!original || original instanceof GraphQLError) && !executed) return [{ error: new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }) }];
  request.log.error({ err: original ?? error, reqId: request.id, path: error.path }, 'GraphQL request failed');
  return [{ error: new GraphQLError(INTERNAL_MESSAGE, { path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: request.id } }), status: 500 }];
}

/** mercurius' errorFormatter: codes on every error, internal causes hidden, statuses as described above. */
export function formatExecution(execution: { data?: unknown; errors: readonly GraphQLError[] }, ctx: { reply: FastifyReply }) {
  const request = ctx.reply.request;
  const executed = execution.data !== undefined;
  const presented = execution.errors.flatMap((e) => present(e, request, executed));
  const errors = presented.map((p) => p.error.toJSON());
  const failure = presented.find((p) => p.status !== undefined)?.status;
  const statusCode = executed ? 200 : (failure ?? errorStatus(request, false));
  return { statusCode, response: executed ? { data: execution.data, errors } : { data: undefined, errors } };
}
