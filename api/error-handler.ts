/**
 * The service's last line of defence: an error no route answered itself. A refusal of a request that is not
 * well-formed (Fastify's 4xx: a body that is not JSON, too large, of a media type no route reads) is answered
 * with its status and message; anything else (a database error, with its SQLSTATE `code` and `severity`, a bug)
 * is logged with the request id and answered 500 with a generic message, never its own text. Answers take the
 * interface's format: the Sage error array, or GraphQL's `errors` on /graphql (whose own formatter,
 * graphql/responses.ts, sees everything but a failure of that formatter or of the GraphQL context).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const INTERNAL_MESSAGE = 'The request could not be completed because of an error in the service; it has been logged. Retry later, or report the request id.';

/** Fastify's own refusals of a malformed request: their messages describe the request, not the service. */
function clientStatus(error: FastifyError): number | undefined {
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const databaseError = typeof (error as { severity?: unknown }).severity === 'string';
  return databaseError ? undefined : status;
}

function answer(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  if (request.url === '/graphql' || request.url.startsWith('/graphql?')) {
    const code = status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
    return reply.code(status).send({ errors: [{ message, extensions: { code, requestId: request.id } }] });
  }
  const dataCode = status >= 500 ? 'InternalError' : status === 413 ? 'RequestTooLarge' : status === 415 ? 'UnsupportedMediaType' : 'InvalidRequest';
  return reply.code(status).send([{ $severity: 'error', $dataCode: dataCode, $message: message, $source: '' }]);
}

export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = clientStatus(error);
    if (status !== undefined) return answer(request, reply, status, error.message);
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return answer(request, reply, 500, `${INTERNAL_MESSAGE} Request id: ${request.id}.`);
  });
}
