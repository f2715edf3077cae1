/**
 * REST errors in Sage's format, `[{$severity,$dataCode,$message,$source}]` (DESIGN.md): the helper every
 * route answers with, body validation against a schema, and the handler for framework errors (bad JSON,
 * wrong media type, oversize body, a bug), so no REST answer ever carries Fastify's or PostgreSQL's text.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { unstorableReason } from '../../platform/storable-text.ts';
import { BusinessError } from '../../domain/errors.ts';

export function sageError(reply: FastifyReply, status: number, dataCode: string, message: string, source = '') {
  return reply.code(status).send([{ $severity: 'error', $dataCode: dataCode, $message: message, $source: source }]);
}

/**
 * A string a text column stores as sent. The service-wide guard (api/text-guard.ts) already answers 400 for
 * NUL or a lone surrogate anywhere in a request; this keeps a schema true when used without it.
 */
export const storableText = (max: number) => z.string().max(max).refine((s) => unstorableReason(s) === undefined, 'must not contain NUL or ill-formed Unicode');

/**
 * Parses a request body with a schema (strict objects refuse unknown fields). On a refusal it answers 422
 * with one Sage error per problem, `$source` naming the field, and returns undefined.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 20).map((issue) => {
    const source = issue.path.join('.');
    const message = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
    return { $severity: 'error', $dataCode: 'InvalidParameter', $message: source ? `${source}: ${message}` : message, $source: source || 'body' };
  });
  reply.code(422).send(problems);
  return undefined;
}

/**
 * Errors thrown by REST routes as Sage errors: a business refusal is 422 naming its field, a framework
 * error keeps its 4xx status, anything else is 500 without its cause (that is logged, never sent).
 */
export function answerErrorsAsSage(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof BusinessError) {
      const field = String(error.params.field ?? '');
      return sageError(reply, 422, 'InvalidParameter', field ? `${field}: ${error.params.reason ?? error.code}` : error.code, field);
    }
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'REST request failed');
      return sageError(reply, 500, 'InternalError', 'The server failed to answer this request; retry later.');
    }
    return sageError(reply, status, status === 413 ? 'PayloadTooLarge' : status === 415 ? 'UnsupportedMediaType' : 'InvalidRequest', error.message, 'body');
  });
}
