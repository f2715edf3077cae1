/**
 * `/triggers`: an organisation's trigger definitions over REST (same authentication as the lists).
 * Reading needs membership; creating, deleting and redriving need a full_access token of an admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { isUuid } from '../../domain/ids.ts';
import { createTrigger, deleteTrigger, getTrigger, listTriggers, parseTriggerStart, type TriggerOptions } from '../../eventqueue/triggers.ts';
import { DELIVERY_LOG_LIMITS, listDeliveries, redriveTrigger } from '../../eventqueue/webhooks/redrive.ts';
import { callerOf } from '../auth/plugin.ts';
import { describeOnly } from '../openapi.ts';
import { answerErrorsAsSage, parseBody, sageError } from './errors.ts';
import { pageWithin, pagedBody, requestedPage } from './paging.ts';
import { addSiteAuthentication } from './plugin.ts';
import { NoBody, TRIGGER_ROUTES, TriggerBody } from './trigger-schemas.ts';

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

/** The trigger id of the path when it is a UUID; otherwise answers 404 (nothing else can name a trigger) and returns undefined. */
function triggerIdOf(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const id = (request.params as { id: string }).id;
  if (isUuid(id)) return id;
  sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
  return undefined;
}

export async function triggersPlugin(app: FastifyInstance, options: { pool: pg.Pool } & TriggerOptions): Promise<void> {
  const { pool } = options;
  answerErrorsAsSage(app);
  addSiteAuthentication(app);
  describeOnly(app);

  // At most TRIGGER_LIMITS.maxPerOrganisation triggers: paged in memory.
  app.get('/triggers', { schema: TRIGGER_ROUTES.list }, async (request, reply) => {
    const asked = requestedPage(request.query, reply);
    if (!asked) return reply;
    const all = (await listTriggers(pool, callerOf(request).organisationId)).map(item);
    const page = pageWithin(asked, all.length);
    return pagedBody('/triggers', all.length, page, asked.perPage, all.slice((page - 1) * asked.perPage, page * asked.perPage));
  });

  app.get('/triggers/:id', { schema: TRIGGER_ROUTES.item }, async (request, reply) => {
    const id = triggerIdOf(request, reply);
    if (!id) return reply;
    const trigger = await getTrigger(pool, callerOf(request).organisationId, id);
    return trigger ? item(trigger) : sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
  });

  app.post('/triggers', { schema: TRIGGER_ROUTES.create }, async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    const body = parseBody(TriggerBody, request.body, reply);
    if (!body) return reply;
    const created = await createTrigger(pool, { organisationId: callerOf(request).organisationId, type: body.type, clientId: body.client_id, url: body.url, events: body.events, from: parseTriggerStart(body.from) }, options);
    return reply.code(201).send({ ...created, $path: `/triggers/${created.id}` });
  });

  app.delete('/triggers/:id', { schema: TRIGGER_ROUTES.delete }, async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    const id = triggerIdOf(request, reply);
    if (!id || !parseBody(NoBody, request.body, reply)) return reply;
    const deleted = await deleteTrigger(pool, callerOf(request).organisationId, id);
    return deleted ? reply.code(204).send() : sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
  });

  // Re-enables a disabled webhook trigger and makes its queued events due now (docs/webhooks.md).
  app.post('/triggers/:id/redrive', { schema: TRIGGER_ROUTES.redrive }, async (request, reply) => {
    if (!mayManage(request, reply)) return reply;
    const id = triggerIdOf(request, reply);
    if (!id || !parseBody(NoBody, request.body, reply)) return reply;
    const result = await redriveTrigger(pool, callerOf(request).organisationId, id);
    if (!result) return sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
    return { id: result.id, was_disabled: result.wasDisabled, disabled_reason: result.disabledReason, requeued: result.requeued, $path: `/triggers/${result.id}` };
  });

  // The webhook delivery log of a trigger: every attempt, newest first, paged like the other lists.
  app.get('/triggers/:id/deliveries', { schema: TRIGGER_ROUTES.deliveries }, async (request, reply) => {
    const id = triggerIdOf(request, reply);
    if (!id) return reply;
    const asked = requestedPage(request.query, reply, { defaultPerPage: DELIVERY_LOG_LIMITS.defaultLimit, maxPerPage: DELIVERY_LOG_LIMITS.maxLimit });
    if (!asked) return reply;
    const { perPage } = asked;
    const read = (p: number) => listDeliveries(pool, callerOf(request).organisationId, id, { limit: perPage, offset: (p - 1) * perPage });
    let log = await read(asked.page);
    if (!log) return sageError(reply, 404, 'RecordNotFound', 'No such trigger.', 'id');
    const page = pageWithin(asked, log.total);
    if (page !== asked.page) log = (await read(page)) ?? log; // past the end: the last page, as the other lists
    return pagedBody(`/triggers/${id}/deliveries`, log.total, page, perPage, log.items.map((d) => ({
      id: d.id, displayed_as: `${d.eventId} attempt ${d.attempt}: ${d.delivered ? `delivered (${d.statusCode})` : d.error}`,
      event_id: d.eventId, attempt: d.attempt, status_code: d.statusCode, delivered: d.delivered, error: d.error, duration_ms: d.durationMs, attempted_at: d.at,
    })));
  });
}
