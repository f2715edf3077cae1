/**
 * Trigger event queue endpoints (spec 4.4) at /ia/api/v1/services/delivery/event: count, list, ack.
 * The queue is the bearer token's OAuth client's, within the token's organisation. Bodies carry
 * `ia::result` and `ia::meta` { totalCount, totalSuccess, totalError } as the spec shows.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { isUuid } from '../../domain/ids.ts';
import { QUEUE_LIMITS, acknowledge, countQueued, listBatch, type QueueOwner } from '../../eventqueue/queue.ts';
import { callerOf } from '../auth/plugin.ts';
import { describeOnly } from '../openapi.ts';
import { QUEUE_ROUTES } from './schemas.ts';

export const EVENT_QUEUE_BASE = '/ia/api/v1/services/delivery/event';

const meta = (totalCount: number, totalSuccess: number, totalError: number) => ({ totalCount, totalSuccess, totalError });
const failure = (message: string) => ({ 'ia::result': { status: 'error', message }, 'ia::meta': meta(1, 0, 1) });
/** The queue's error body, for answers given outside this plugin (unknown routes under its base). */
export const queueFailure = failure;

/** The queue of a request: its token's OAuth client's, within the token's organisation. */
function ownerOf(request: FastifyRequest): QueueOwner {
  const { organisationId, clientId } = callerOf(request);
  return { organisationId, clientId };
}

/** Query and body fields, each typed; unknown fields refused (a misspelt `size` never passes silently). */
const NoQuery = z.strictObject({});
const ListQuery = z.strictObject({ size: z.string().regex(/^[0-9]{1,4}$/).transform(Number).pipe(z.number().int().min(1).max(QUEUE_LIMITS.maxListSize)).optional() });
const AckBody = z.strictObject({ ackId: z.string().refine(isUuid, 'must be the UUID ackId of a listed batch') });

/** Parses with a schema; on a refusal answers 400 in the queue's format, naming the field, and returns undefined. */
function parsed<T>(schema: z.ZodType<T>, input: unknown, reply: FastifyReply, shape: string): T | undefined {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const problem = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : `${issue.path.join('.') || 'body'}: ${issue.message}`;
  reply.code(400).send(failure(`${problem}. ${shape}`));
  return undefined;
}

export async function eventQueuePlugin(app: FastifyInstance, options: { pool: pg.Pool; leaseSeconds: number }): Promise<void> {
  const { pool, leaseSeconds } = options;

  // Framework errors (bad JSON, wrong media type, oversize) and failures in the queue's format; a 5xx never shows its cause.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'event queue request failed');
    return reply.code(status).send(failure(status === 500 ? 'The event queue failed to answer; retry later.' : error.message));
  });

  // No organisation header needed (the token's own); one naming another organisation is refused.
  app.authenticateCallers({ organisation: 'optional', refuse: (reply, refusal) => reply.code(refusal.status).send(failure(refusal.message)) });
  describeOnly(app); // (schemas.ts: for the OpenAPI document; the zod checks below answer in the queue's format)

  app.get('/count', { schema: QUEUE_ROUTES.count }, async (request, reply) => {
    if (!parsed(NoQuery, request.query, reply, '/count takes no parameters.')) return reply;
    const count = await countQueued(pool, ownerOf(request));
    return { 'ia::result': { count }, 'ia::meta': meta(1, 1, 0) };
  });

  app.get('/list', { schema: QUEUE_ROUTES.list }, async (request, reply) => {
    const query = parsed(ListQuery, request.query, reply, `size must be an integer from 1 to ${QUEUE_LIMITS.maxListSize}.`);
    if (!query) return reply;
    const size = query.size ?? QUEUE_LIMITS.defaultListSize;
    const batch = await listBatch(pool, ownerOf(request), size, leaseSeconds);
    return { 'ia::result': { events: batch.events, ackId: batch.ackId }, 'ia::meta': meta(batch.events.length, batch.events.length, 0) };
  });

  app.post('/ack', { schema: QUEUE_ROUTES.ack }, async (request, reply) => {
    // Acknowledging deletes the batch's events: a write, so a readonly token may only count and list.
    if (callerOf(request).scope !== 'full_access') return reply.code(403).send(failure('Acknowledging deletes queued events: it needs a full_access token (this one is readonly).'));
    const input = parsed(AckBody, request.body, reply, 'Body must be {"ackId": "<the ackId of a listed batch>"}.');
    if (!input) return reply;
    const { ackId } = input;
    const result = await acknowledge(pool, ownerOf(request), ackId);
    const body = (ok: boolean, message?: string) => ({ 'ia::result': { ackId, status: result.status, ...(message ? { message } : {}) }, 'ia::meta': meta(1, ok ? 1 : 0, ok ? 0 : 1) });
    switch (result.status) {
      case 'success':
        return body(true);
      case 'alreadyAcknowledged':
        return body(true, 'this batch was acknowledged before');
      case 'expired':
        return reply.code(410).send(body(false, `the lease expired (${leaseSeconds} s); its events are listed again in a new batch`));
      case 'notFound':
        return reply.code(404).send(body(false, 'no batch with this ackId in this queue'));
    }
  });
}
