/**
 * Trigger event queue endpoints (spec 4.4) at /ia/api/v1/services/delivery/event: count, list, ack.
 * The queue is the bearer token's OAuth client's, within the token's organisation. Bodies carry
 * `ia::result` and `ia::meta` { totalCount, totalSuccess, totalError } as the spec shows.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { QUEUE_LIMITS, acknowledge, countQueued, listBatch, type QueueOwner } from '../../eventqueue/queue.ts';
import type { Identity } from '../auth/identity.ts';
import { authenticateRequest } from '../auth/request.ts';

const meta = (totalCount: number, totalSuccess: number, totalError: number) => ({ totalCount, totalSuccess, totalError });
const failure = (message: string) => ({ 'ia::result': { status: 'error', message }, 'ia::meta': meta(1, 0, 1) });

export async function eventQueuePlugin(app: FastifyInstance, options: { pool: pg.Pool; identity: Identity; leaseSeconds: number }): Promise<void> {
  const { pool, identity, leaseSeconds } = options;

  app.decorateRequest('queueOwner', null);
  app.addHook('preHandler', async (request, reply) => {
    // No organisation header needed (the token's own); one naming another organisation is refused.
    const { caller, refusal } = await authenticateRequest(identity, request.headers, 'optional');
    if (refusal) return reply.code(refusal.status).send(failure(refusal.message));
    (request as typeof request & { queueOwner: QueueOwner }).queueOwner = { organisationId: caller.organisationId, clientId: caller.clientId };
  });
  const ownerOf = (request: object) => (request as { queueOwner: QueueOwner }).queueOwner;

  app.get('/count', async (request) => {
    const count = await countQueued(pool, ownerOf(request));
    return { 'ia::result': { count }, 'ia::meta': meta(1, 1, 0) };
  });

  app.get('/list', async (request, reply) => {
    const raw = (request.query as { size?: string }).size;
    const size = raw === undefined ? QUEUE_LIMITS.defaultListSize : Number(raw);
    if (!Number.isInteger(size) || size < 1 || size > QUEUE_LIMITS.maxListSize) {
      return reply.code(400).send(failure(`size must be an integer from 1 to ${QUEUE_LIMITS.maxListSize}`));
    }
    const batch = await listBatch(pool, ownerOf(request), size, leaseSeconds);
    return { 'ia::result': { events: batch.events, ackId: batch.ackId }, 'ia::meta': meta(batch.events.length, batch.events.length, 0) };
  });

  app.post('/ack', async (request, reply) => {
    const ackId = (request.body as { ackId?: unknown } | undefined)?.ackId;
    if (typeof ackId !== 'string') return reply.code(400).send(failure('Body must be {"ackId": "<the ackId of a listed batch>"}'));
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
