/**
 * The schemas the event queue's routes declare (spec 4.4), for the OpenAPI document (api/openapi.ts: they
 * describe; plugin.ts's zod checks refuse in the queue's own format). Every body is `ia::result` + `ia::meta`.
 */
import { QUEUE_LIMITS } from '../../eventqueue/queue.ts';
import { ORGANISATION_HEADERS, TOKEN_SECURITY } from '../openapi.ts';

type Schema = Record<string, unknown>;

const META = {
  type: 'object',
  required: ['totalCount', 'totalSuccess', 'totalError'],
  properties: { totalCount: { type: 'integer', minimum: 0 }, totalSuccess: { type: 'integer', minimum: 0 }, totalError: { type: 'integer', minimum: 0 } },
};

const answer = (result: Schema): Schema => ({ type: 'object', required: ['ia::result', 'ia::meta'], properties: { 'ia::result': result, 'ia::meta': META } });

/** A refusal or failure: `ia::result` { status: error, message }. */
const FAILURE = { description: 'A refusal or failure, in the queue\'s format.', ...answer({ type: 'object', required: ['status', 'message'], properties: { status: { type: 'string', enum: ['error'] }, message: { type: 'string' } } }) };

const base64 = (description: string) => ({ type: 'string', contentEncoding: 'base64', description });

const EVENT = {
  type: 'object',
  required: ['eventId', 'eventType', 'contentType', 'clientContext', 'payload'],
  properties: {
    eventId: { type: 'string' },
    eventType: { type: 'string', enum: ['pull'] },
    contentType: { type: 'string', enum: ['application/json'] },
    clientContext: base64('Base64 JSON: { object, event, key, id } of the changed record.'),
    payload: base64('Base64 JSON: the event\'s public payload.'),
  },
};

const ACK_RESULT = answer({
  type: 'object',
  required: ['ackId', 'status'],
  properties: { ackId: { type: 'string' }, status: { type: 'string', enum: ['success', 'alreadyAcknowledged', 'expired', 'notFound'] }, message: { type: 'string' } },
});

function queueRoute(summary: string, schema: { querystring?: Schema; body?: Schema; response: Record<number, Schema> }): Schema {
  return {
    tags: ['event queue'],
    summary,
    description: 'The queue of the token\'s OAuth client, in the token\'s organisation: the organisation header is optional and must name that organisation when sent.',
    security: TOKEN_SECURITY,
    headers: ORGANISATION_HEADERS,
    ...schema,
    response: { ...schema.response, '4xx': FAILURE, '5xx': FAILURE },
  };
}

export const QUEUE_ROUTES = {
  count: queueRoute('How many events wait in the queue.', {
    querystring: { type: 'object', additionalProperties: false, properties: {} },
    response: { 200: answer({ type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 0 } } }) },
  }),
  list: queueRoute('Leases the next batch of events (listed again once the lease expires unless acknowledged).', {
    querystring: {
      type: 'object', additionalProperties: false,
      properties: { size: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.maxListSize, default: QUEUE_LIMITS.defaultListSize } },
    },
    response: {
      200: answer({
        type: 'object', required: ['events', 'ackId'],
        properties: { events: { type: 'array', items: EVENT }, ackId: { type: ['string', 'null'], format: 'uuid', description: 'Acknowledge with it; null when nothing was listed.' } },
      }),
    },
  }),
  ack: queueRoute('Acknowledges a listed batch: its events leave the queue (needs a full_access token).', {
    body: { type: 'object', additionalProperties: false, required: ['ackId'], properties: { ackId: { type: 'string', format: 'uuid' } } },
    response: { 200: ACK_RESULT, 404: ACK_RESULT, 410: ACK_RESULT },
  }),
};
