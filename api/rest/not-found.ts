/**
 * Unknown routes and wrong methods: 404 in the format of the interface the path belongs to. REST (and
 * anything outside the other areas) answers Sage's error array; GraphQL, OAuth and the event queue keep
 * their own formats on their paths, so a client parses every answer of one area the same way.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_QUEUE_BASE, queueFailure } from '../eventqueue/plugin.ts';
import { noStore } from '../oauth/errors.ts';
import { sageError } from './errors.ts';

type Answer = (reply: FastifyReply, message: string) => FastifyReply;

const graphqlError: Answer = (reply, message) => reply.code(404).send({ errors: [{ message, extensions: { code: 'NOT_FOUND' } }] });

/** Path prefixes of the areas with their own error format; the first that matches answers. */
const AREAS: Array<{ prefix: string; answer: Answer }> = [
  { prefix: '/graphql', answer: graphqlError },
  { prefix: '/graphiql', answer: graphqlError },
  { prefix: '/oauth', answer: (reply, message) => noStore(reply).code(404).send({ error: 'invalid_request', error_description: message }) },
  { prefix: EVENT_QUEUE_BASE, answer: (reply, message) => reply.code(404).send(queueFailure(message)) },
];

const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

function answerNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  const message = `No route ${request.method} ${path.length > 200 ? `${path.slice(0, 200)}...` : path}.`;
  const area = AREAS.find((a) => within(path, a.prefix));
  return area ? area.answer(reply, message) : sageError(reply, 404, 'NotFound', message, 'path');
}

/**
 * Registered as a plugin without prefix: its handler replaces Fastify's 404 for every path, with this
 * context's error handler (a body that does not parse on an unknown route is still a 404) and none of
 * the other plugins' hooks.
 */
export async function unknownRoutesPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((_error, request, reply) => answerNotFound(request, reply));
  app.setNotFoundHandler(answerNotFound);
}
