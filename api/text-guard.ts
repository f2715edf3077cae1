/**
 * Refuses a request whose body, query or path parameters hold text no store can hold (NUL, a lone
 * surrogate: platform/storable-text.ts), before any handler sees it, in the interface's own format:
 * OAuth's `invalid_request`, the event queue's `ia::result`, the REST error array elsewhere. GraphQL
 * answers for itself: its parser refuses such literals, and every mutation's input goes through the
 * commands' parse (global.businessErrors.invalidInput naming the field).
 */
import type { FastifyInstance } from 'fastify';
import { unstorableTextAt } from '../platform/storable-text.ts';
import { sageError } from './rest/plugin.ts';

const EVENT_QUEUE = '/ia/api/v1/services/delivery/event';

export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const url = request.routeOptions.url ?? '';
    if (url === '/graphql' || url.startsWith('/graphiql')) return;
    const found = unstorableTextAt({ body: request.body, query: request.query, params: request.params });
    if (!found) return;
    const message = `${found.field} ${found.reason}, which cannot be stored.`;
    if (url.startsWith('/oauth/')) return reply.code(400).header('cache-control', 'no-store').send({ error: 'invalid_request', error_description: message });
    if (url.startsWith(EVENT_QUEUE)) return reply.code(400).send({ 'ia::result': { status: 'error', message }, 'ia::meta': { totalCount: 1, totalSuccess: 0, totalError: 1 } });
    return sageError(reply, 400, 'InvalidParameter', message, found.field.replace(/^(body|query|params)\./, ''));
  });
}
