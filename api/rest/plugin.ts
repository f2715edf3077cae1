/**
 * REST lists (spec 4.2 and 8.2): `GET /<collection>` paged with `page`/`items_per_page`, and
 * `GET /<collection>/<id>`. Collections and item shapes come from the resource definitions.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { storedFields, type Resource } from '../../projections/engine/resource.ts';
import { callerOf } from '../auth/plugin.ts';
import { GRAPHQL_RESOURCES } from '../graphql/sdl.ts';
import { listQuery, type Row } from '../graphql/query-builder.ts';
import { readScoped } from '../read-scope.ts';
import { isUuid } from '../../domain/ids.ts';
import { answerErrorsAsSage, sageError } from './errors.ts';
import { REST_PAGING, pageWithin, pagedBody, requestedPage } from './paging.ts';

export { REST_PAGING, sageError };

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** REST authentication (spec 5.1, api/auth/request.ts): a live Bearer token and the X-Site it was issued for; refusals as Sage errors. */
export function addSiteAuthentication(app: FastifyInstance): void {
  app.authenticateCallers({
    organisation: 'required',
    refuse: (reply, refusal) => sageError(reply, refusal.status, refusal.status === 400 ? 'InvalidParameter' : 'Unauthorized', refusal.message, refusal.source),
  });
}

function restItem(resource: Resource, node: Row): Row {
  const rest = resource.rest!;
  const item: Row = { id: node.id, displayed_as: rest.displayedAs(node), $path: `${rest.path}/${node.id}` };
  for (const x of storedFields(resource)) if (x.rest !== false && x.name !== 'id' && !x.hidden) item[snake(x.name)] = node[x.name];
  return item;
}

export async function restPlugin(app: FastifyInstance, options: { pool: pg.Pool }): Promise<void> {
  const { pool } = options;

  answerErrorsAsSage(app);
  addSiteAuthentication(app);

  for (const resource of GRAPHQL_RESOURCES.filter((r) => r.rest)) {
    const path = resource.rest!.path;
    app.get(path, async (request, reply) => {
      const caller = callerOf(request);
      const asked = requestedPage(request.query, reply);
      if (!asked) return reply;
      const { perPage } = asked;
      const { total, page, result } = await readScoped(pool, caller.organisationId, async (db) => {
        const total = (await listQuery(db, resource, caller.organisationId, { first: 0 })).totalCount;
        const page = pageWithin(asked, total);
        const offset = (page - 1) * perPage;
        const after = offset > 0 ? Buffer.from(String(offset - 1)).toString('base64') : undefined;
        return { total, page, result: await listQuery(db, resource, caller.organisationId, { first: perPage, after }) };
      });
      return pagedBody(path, total, page, perPage, result.nodes.map((node) => restItem(resource, node)));
    });
    app.get(`${path}/:id`, async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params as { id: string };
      if (!isUuid(id)) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      const result = await readScoped(pool, caller.organisationId, (db) => listQuery(db, resource, caller.organisationId, { first: 1, where: { id: { eq: id } } }));
      if (result.nodes.length === 0) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      return restItem(resource, result.nodes[0]);
    });
  }
}
