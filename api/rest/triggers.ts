/**
 * `/triggers`: an organisation's trigger definitions over REST (same authentication as the lists).
 * Reading needs membership; creating, deleting and redriving need a full_access token of an admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { BusinessError } from '../../domain/errors.ts';
import { createTrigger, deleteTrigger, getTrigger, listTriggers, parseTriggerStart, type TriggerOptions } from '../../eventqueue/triggers.ts';
import { DELIVERY_LOG_LIMITS, listDeliveries, redriveTrigger } from '../../eventqueue/webhooks/redrive.ts';
import type { Identity } from '../auth/identity.ts';
import { addSiteAuthentication, callerOf, sageError } from './plugin.ts';

const item = (t: Awaited<ReturnType<typeof listTriggers>>[number]) => ({
  id: t.id, displayed_as: `${t.type} ${t.clientId ?? t.url}`, $path: `/triggers/${t.id}`,
  type: t.type, client_id: t.clientId, url: t.url, events: t.events, starts_after: t.startsAfter, created_at: t.createdAt, disabled_at: t.disabledAt, disabled_reason: t.disabledReason,
});

function mayManage(request: FastifyRequest, reply: FastifyReply): boolean {
  const caller = callerOf(request);
  if (caller.scope === 'full_access' && caller.role === 'admin') return true;
  sageError(reply, 403, 'Forbidden', `Managing triggers needs a full_access token of an admin (this is ${caller.scope}, role ${caller.role}).`, 'Authorization');
  return false;
}

export async function triggersPlugin(app: FastifyInstance, options: { pool: pg.Pool; identity: Identity } & TriggerOptions): Promise<void> {
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
    const body = (request.body ?? {}) as { type?: string; client_id?: string; url?: string; events?: string[]; from?: unknown };
    if (body.type !== 'event-queue' && body.type !== 'http-post') return sageError(reply, 422, 'InvalidParameter', 'type must be event-queue or http-post.', 'type');
    try {
      const from = parseTriggerStart(body.from);
      const created = await createTrigger(pool, { organisationId: callerOf(request).organisationId, type: body.type, clientId: body.client_id, url: body.url, events: body.events, from }, options);
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

  // Re-enables a disabled webhook trigger and makes its queued events due now (docs/webhooks.md).
  app.post('/triggers/:id/redrive', async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    try {
      const result = await redriveTrigger(pool, callerOf(request).organisationId, (request.params as { id: string }).id);
      if (!result) return sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
      return { id: result.id, was_disabled: result.wasDisabled, disabled_reason: result.disabledReason, requeued: result.requeued, $path: `/triggers/${result.id}` };
    } catch (error) {
      if (error instanceof BusinessError) return sageError(reply, 422, 'InvalidParameter', `${error.params.field}: ${error.params.reason}`, String(error.params.field));
      throw error;
    }
  });

  // The webhook delivery log of a trigger: every attempt, newest first, paged like the other lists.
  app.get('/triggers/:id/deliveries', async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const query = request.query as { page?: string; items_per_page?: string };
    const perPage = Math.min(Number(query.items_per_page ?? DELIVERY_LOG_LIMITS.defaultLimit), DELIVERY_LOG_LIMITS.maxLimit);
    let page = Number(query.page ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1) return sageError(reply, 400, 'InvalidParameter', 'items_per_page must be a positive integer.', 'items_per_page');
    if (!Number.isInteger(page) || page < 1) return sageError(reply, 400, 'InvalidParameter', 'page must be a positive integer.', 'page');
    const read = (p: number) => listDeliveries(pool, callerOf(request).organisationId, id, { limit: perPage, offset: (p - 1) * perPage });
    let log = await read(page);
    if (!log) return sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
    const path = `/triggers/${id}/deliveries`;
    const last = Math.max(1, Math.ceil(log.total / perPage));
    if (page > last) {
      page = last; // past the end: the last page, as the other lists
      log = (await read(page)) ?? log;
    }
    const link = (p: number) => `${path}?page=${p}&items_per_page=${perPage}`;
    return {
      $total: log.total, $page: page, $next: page < last ? link(page + 1) : null, $back: page > 1 ? link(page - 1) : null, $itemsPerPage: perPage,
      $items: log.items.map((d) => ({
        id: d.id, displayed_as: `${d.eventId} attempt ${d.attempt}: ${d.delivered ? `delivered (${d.statusCode})` : d.error}`,
        event_id: d.eventId, attempt: d.attempt, status_code: d.statusCode, delivered: d.delivered, error: d.error, duration_ms: d.durationMs, attempted_at: d.at,
      })),
    };
  });
}
