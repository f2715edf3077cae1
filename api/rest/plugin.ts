/**
 * REST lists (spec 4.2 and 8.2): `GET /<collection>` paged with `page`/`items_per_page`, and
 * `GET /<collection>/<id>`. Collections and item shapes come from the resource definitions.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { callerOf } from '../auth/plugin.ts';
import { GRAPHQL_RESOURCES } from '../graphql/sdl.ts';
import { listQuery } from '../graphql/query-builder.ts';
import { restCollections } from '../../projections/engine/resource.ts';
import { describeOnly } from '../openapi.ts';
import { readScoped } from '../read-scope.ts';
import { isUuid } from '../../domain/ids.ts';
import { answerErrorsAsSage, sageError } from './errors.ts';
import { restItem, restItemSchema } from './item.ts';
import { REST_PAGING, pageWithin, pagedBody, requestedPage } from './paging.ts';
import { ID_PARAMS, PAGE_QUERY, pagedSchema, restRoute } from './schemas.ts';

export { REST_PAGING, sageError };

/** REST authentication (spec 5.1, api/auth/request.ts): a live Bearer token and the X-Site it was issued for; refusals as Sage errors. */
export function addSiteAuthentication(app: FastifyInstance): void {
  app.authenticateCallers({
    organisation: 'required',
    refuse: (reply, refusal) => sageError(reply, refusal.status, refusal.status === 400 ? 'InvalidParameter' : 'Unauthorized', refusal.message, refusal.source),
  });
}

export async function restPlugin(app: FastifyInstance, options: { pool: pg.Pool }): Promise<void> {
  const { pool } = options;

  answerErrorsAsSage(app);
  addSiteAuthentication(app);
  describeOnly(app);

  for (const [resource, collection] of GRAPHQL_RESOURCES.flatMap((r) => restCollections(r).map((c) => [r, c] as const))) {
    const path = collection.path;
    const item = restItemSchema(resource, collection);
    // A collection under a fixed filter (credit notes among the invoices) lists and finds only its rows.
    const within = (where?: Record<string, unknown>) => (collection.where ? (where ? { and: [collection.where, where] } : collection.where) : where);
    const tag = path.slice(1);
    app.get(path, { schema: restRoute(tag, `A page of ${resource.typeName} items.`, { querystring: PAGE_QUERY(), response: { 200: pagedSchema(item) } }) }, async (request, reply) => {
      const caller = callerOf(request);
      const asked = requestedPage(request.query, reply);
      if (!asked) return reply;
      const { perPage } = asked;
      const { total, page, result } = await readScoped(pool, caller.organisationId, async (db) => {
        const total = (await listQuery(db, resource, caller.organisationId, { first: 0, where: within() })).totalCount;
        const page = pageWithin(asked, total);
        const offset = (page - 1) * perPage;
        const after = offset > 0 ? Buffer.from(String(offset - 1)).toString('base64') : undefined;
        return { total, page, result: await listQuery(db, resource, caller.organisationId, { first: perPage, after, where: within() }) };
      });
      return pagedBody(path, total, page, perPage, result.nodes.map((node) => restItem(resource, collection, node)));
    });
    app.get(`${path}/:id`, { schema: restRoute(tag, `One ${resource.typeName}.`, { params: ID_PARAMS, response: { 200: item } }) }, async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params as { id: string };
      if (!isUuid(id)) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      const result = await readScoped(pool, caller.organisationId, (db) => listQuery(db, resource, caller.organisationId, { first: 1, where: within({ id: { eq: id } }) }));
      if (result.nodes.length === 0) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      return restItem(resource, collection, result.nodes[0]);
    });
  }
}
