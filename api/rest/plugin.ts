/**
 * REST lists (spec 4.2 and 8.2): `GET /<collection>` paged with `page`/`items_per_page`, and
 * `GET /<collection>/<id>`. Collections and item shapes come from the resource definitions.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { storedFields, type Resource } from '../../projections/resource.ts';
import type { Caller, Identity } from '../auth/identity.ts';
import { GRAPHQL_RESOURCES } from '../graphql/sdl.ts';
import { listQuery, type Row } from '../graphql/query-builder.ts';
import { readScoped } from '../read-scope.ts';
import { isUuid } from '../../domain/ids.ts';
import { answerErrorsAsSage, sageError } from './errors.ts';
import { REST_PAGING, pageWithin, pagedBody, requestedPage } from './paging.ts';

export { REST_PAGING, sageError };

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** REST authentication (spec 5.1): a live Bearer token and an X-Site its user belongs to. */
export function addSiteAuthentication(app: FastifyInstance, identity: Identity): void {
  app.decorateRequest('caller', null);
  app.addHook('preHandler', async (request, reply) => {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const site = request.headers['x-site'] as string | undefined;
    if (!bearer) return sageError(reply, 401, 'Unauthorized', 'Send Authorization: Bearer <access token>.', 'Authorization');
    if (!site || !/^[0-9a-f-]{36}$/i.test(site)) return sageError(reply, 401, 'Unauthorized', 'Send X-Site: <organisation id> (the resource_owner_id).', 'X-Site');
    const caller = await identity.authenticate(bearer, site);
    if (!caller) return sageError(reply, 401, 'Unauthorized', 'The access token is invalid, expired, revoked, or not valid for this X-Site.', 'Authorization');
    (request as FastifyRequest & { caller: Caller }).caller = caller;
  });
}

export const callerOf = (request: FastifyRequest) => (request as FastifyRequest & { caller: Caller }).caller;

function restItem(resource: Resource, node: Row): Row {
  const rest = resource.rest!;
  const item: Row = { id: node.id, displayed_as: rest.displayedAs(node), $path: `${rest.path}/${node.id}` };
  for (const x of storedFields(resource)) if (x.rest !== false && x.name !== 'id' && !x.hidden) item[snake(x.name)] = node[x.name];
  return item;
}

export async function restPlugin(app: FastifyInstance, options: { pool: pg.Pool; identity: Identity }): Promise<void> {
  const { pool, identity } = options;

  answerErrorsAsSage(app);
  addSiteAuthentication(app, identity);

  for (const resource of GRAPHQL_RESOURCES.filter((r) => r.rest)) {
    const path = resource.rest!.path;
    app.get(path, async (request, reply) => {
      const caller = (request as FastifyRequest & { caller: Caller }).caller;
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
      const caller = (request as FastifyRequest & { caller: Caller }).caller;
      const { id } = request.params as { id: string };
      if (!isUuid(id)) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      const result = await readScoped(pool, caller.organisationId, (db) => listQuery(db, resource, caller.organisationId, { first: 1, where: { id: { eq: id } } }));
      if (result.nodes.length === 0) return sageError(reply, 404, 'RecordNotFound', `No ${resource.typeName} ${id}.`, 'id');
      return restItem(resource, result.nodes[0]);
    });
  }
}
