/**
 * `/triggers`: an organisation's trigger definitions over REST (same authentication as the lists).
 * Reading needs membership; creating, deleting and redriving need a full_access token of an admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { BusinessError } from '../../domain/errors.ts';
import { createTrigger, deleteTrigger, getTrigger, listTriggers } from '../../eventqueue/triggers.ts';
import type { Identity } from '../auth/identity.ts';
import { addSiteAuthentication, callerOf, sageError } from './plugin.ts';

const item = (t: Awaited<ReturnType<typeof listTriggers>>[number]) => ({
  id: t.id, displayed_as: `${t.type} ${t.clientId ?? t.url}`, $path: `/triggers/${t.id}`,
  type: t.type, client_id: t.clientId, url: t.url, events: t.events, created_at: t.createdAt, disabled_at: t.disabledAt, disabled_reason: t.disabledReason,
});

function mayManage(request: FastifyRequest, reply: FastifyReply): boolean {
  const caller = callerOf(request);
  if (caller.scope === 'full_access' && caller.role === 'admin') return true;
  sageError(reply, 403, 'Forbidden', `Managing triggers needs a full_access token of an admin (this is ${caller.scope}, role ${caller.role}).`, 'Authorization');
  return false;
}

export async function triggersPlugin(app: FastifyInstance, options: { pool: pg.Pool; identity: Identity }): Promise<void> {
  const { pool, identity } = options;
  addSiteAuthentication(app, identity);

  app.get('/triggers', async (request) => {
    const all = (await listTriggers(pool, callerOf(request).organisationId)).map(item);
    return { $total: all.length, $page: 1, $next: null, $back: null, $itemsPerPage: all.length, $items: all };
  });

  app.get('/triggers/:id', async (request, reply) => {
    const trigger = await getTrigger(pool, callerOf(request).organisationId, (request.params as { id: string }).id);
    return trigger ? item(trigger) : sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
  });

  app.post('/triggers', async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    const body = (request.body ?? {}) as { type?: string; client_id?: string; url?: string; events?: string[] };
    if (body.type !== 'event-queue' && body.type !== 'http-post') return sageError(reply, 422, 'InvalidParameter', 'type must be event-queue or http-post.', 'type');
    try {
      const created = await createTrigger(pool, { organisationId: callerOf(request).organisationId, type: body.type, clientId: body.client_id, url: body.url, events: body.events });
      return reply.code(201).send({ ...created, $path: `/triggers/${created.id}` });
    } catch (error) {
      if (error instanceof BusinessError) return sageError(reply, 422, 'InvalidParameter', `${error.params.field}: ${error.params.reason}`, String(error.params.field));
      throw error;
    }
  });

  app.delete('/triggers/:id', async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    const deleted = await deleteTrigger(pool, callerOf(request).organisationId, (request.params as { id: string }).id);
    return deleted ? reply.code(204).send() : sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
  });
}
