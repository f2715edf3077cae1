/**
 * What /graphql checks before anything else of a request runs (authentication included), so that an operation
 * refused here touches neither the database nor a recursive walker:
 *   1. nesting: ( [ { in the document, and arrays/objects in the variables, at most INPUT_LIMITS.maxNesting deep
 *      (graphql-js parses, validates and coerces values recursively: `[[[[…]]]]` thousands deep would overflow the
 *      stack) -> MAX_NESTING_EXCEEDED;
 *   2. parsing, with at most INPUT_LIMITS.maxTokens tokens -> MAX_TOKENS_EXCEEDED, GRAPHQL_PARSE_FAILED;
 *      a JSON number that JSON.parse changed (sent-numbers.ts) -> INEXACT_DECIMAL;
 *   3. cost (cost.ts) -> HC0047, MAX_DEPTH_EXCEEDED, MAX_ALIASES_EXCEEDED; header `GraphQL-Cost: report|validate`.
 * Refusals are answered as responses.ts describes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { checkCost, operationCost, type CostLimits } from './cost.ts';
import { GRAPHQL_RESPONSE_JSON, errorStatus, responseMediaType } from './responses.ts';
import { numberChangedIn } from './sent-numbers.ts';
import { inexactNumber } from '../../commands/input-types.ts';
import { Decimal } from '../../domain/money.ts';

/** Far above what a real operation needs (selections nest 12 deep at most, filters 10), far below a stack overflow. */
export const INPUT_LIMITS = Object.freeze({ maxNesting: 64, maxTokens: 20_000 });

/** The deepest nesting of ( [ { in a GraphQL source, outside strings and comments; stops early past `limit`. */
export function sourceNesting(source: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i + 1 < source.length && source[i + 1] !== '\n' && source[i + 1] !== '\r') i++;
    } else if (c === '"' && source.startsWith('"""', i)) {
      i += 3;
      while (i < source.length && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
      i += 2;
    } else if (c === '"') {
      i++;
      while (i < source.length && source[i] !== '"' && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
    } else if (c === '(' || c === '[' || c === '{') {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return deepest;
}

/** The deepest nesting of arrays and objects in a JSON value (iterative); stops early past `limit`. */
export function valueNesting(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return deepest;
}

const refusal = (message: string, code: string, extra: Record<string, unknown> = {}) => new GraphQLError(message, { extensions: { code, ...extra } });

function nestingRefusal(where: string, depth: number) {
  return refusal(`The ${where} nests deeper than ${INPUT_LIMITS.maxNesting} levels of brackets and braces.`, 'MAX_NESTING_EXCEEDED', { maxNesting: INPUT_LIMITS.maxNesting, depth });
}

/** The document of `source`, or the refusal to answer. */
export function parseWithinLimits(source: string): DocumentNode | GraphQLError {
  const depth = sourceNesting(source, INPUT_LIMITS.maxNesting);
  if (depth > INPUT_LIMITS.maxNesting) return nestingRefusal('document', depth);
  try {
    return parse(source, { maxTokens: INPUT_LIMITS.maxTokens });
  } catch (e) {
    const error = e as GraphQLError;
    if (/contains more tha[nt] \d+ tokens/.test(error.message)) return refusal(`The document has more than ${INPUT_LIMITS.maxTokens} tokens.`, 'MAX_TOKENS_EXCEEDED', { maxTokens: INPUT_LIMITS.maxTokens });
    return new GraphQLError(error.message, { source: error.source, positions: error.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
  }
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // mercurius refuses variables that are not JSON itself
  }
}

type CostReporting = FastifyRequest & { operationCost?: object };

export function addRequestGate(app: FastifyInstance, schema: GraphQLSchema, limits: CostLimits): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.url !== '/graphql') return;
    const body = (request.method === 'GET' ? request.query : request.body) as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
    if (typeof body?.query !== 'string') return; // mercurius answers malformed requests itself
    const refuse = (error: GraphQLError, extensions?: object) => reply.code(errorStatus(request, false)).send({ errors: [error.toJSON()], extensions });

    const document = parseWithinLimits(body.query);
    if (document instanceof GraphQLError) return refuse(document);
    const variables = typeof body.variables === 'string' ? jsonObject(body.variables) : (body.variables as Record<string, unknown> | undefined);
    const depth = valueNesting(variables, INPUT_LIMITS.maxNesting);
    if (depth > INPUT_LIMITS.maxNesting) return refuse(nestingRefusal('variables value', depth));
    const changed = numberChangedIn(request, request.method === 'GET' ? body.variables : undefined);
    if (changed) return refuse(refusal(inexactNumber(changed, new Decimal(changed).toFixed()).message, 'INEXACT_DECIMAL'));

    const cost = operationCost(schema, document, variables, typeof body.operationName === 'string' ? body.operationName : undefined);
    const mode = String(request.headers['graphql-cost'] ?? '').toLowerCase();
    const operationCostReport = { fieldCost: cost.fieldCost, typeCost: cost.typeCost };
    const refused = checkCost(cost, limits);
    if (refused) return refuse(refused, mode ? { operationCost: operationCostReport } : undefined);
    if (mode === 'validate') return reply.send({ extensions: { operationCost: operationCostReport } });
    if (mode === 'report') (request as CostReporting).operationCost = operationCostReport;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== '/graphql') return payload;
    if (responseMediaType(request) === GRAPHQL_RESPONSE_JSON && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      reply.header('content-type', `${GRAPHQL_RESPONSE_JSON}; charset=utf-8`);
    }
    const report = (request as CostReporting).operationCost;
    if (!report || typeof payload !== 'string') return payload;
    const response = JSON.parse(payload);
    response.extensions = { ...response.extensions, operationCost: report };
    return JSON.stringify(response);
  });
}
