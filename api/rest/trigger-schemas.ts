/**
 * What `/triggers` accepts and answers: the body it parses (zod, strict) and the schemas its routes declare,
 * the body's derived from the same zod definition.
 */
import { z } from 'zod';
import { TRIGGER_LIMITS } from '../../eventqueue/triggers.ts';
import { DELIVERY_LOG_LIMITS } from '../../eventqueue/webhooks/redrive.ts';
import { jsonSchemaOf } from '../openapi.ts';
import { storableText } from './errors.ts';
import { ID_PARAMS, PAGE_QUERY, pagedSchema, restRoute } from './schemas.ts';

/** The body of `POST /triggers`: every field typed, unknown fields refused (a typo never passes silently). */
export const TriggerBody = z.strictObject({
  type: z.enum(['event-queue', 'http-post']),
  client_id: storableText(200).optional(),
  url: storableText(TRIGGER_LIMITS.maxUrlLength).optional(),
  events: z.array(storableText(200)).max(200).optional(),
  /** Where its queue starts: now (default), beginning, or a position COMMIT/PREPARE. */
  from: storableText(50).optional(),
});
/** Redrive and delete take no parameters: an empty body or `{}`. */
export const NoBody = z.strictObject({});

const text = { type: 'string' };
const orNull = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
const dateTime = { type: 'string', format: 'date-time' };
const uuid = { type: 'string', format: 'uuid' };

const trigger = {
  type: 'object',
  title: 'Trigger',
  additionalProperties: false,
  required: ['id', 'displayed_as', '$path', 'type', 'client_id', 'url', 'events', 'starts_after', 'created_at', 'disabled_at', 'disabled_reason'],
  properties: {
    id: uuid, displayed_as: text, $path: text,
    type: { type: 'string', enum: ['event-queue', 'http-post'] },
    client_id: orNull('string', { description: 'The OAuth client whose queue receives the events (event-queue).' }),
    url: orNull('string', { description: 'Where events are posted (http-post).' }),
    events: { type: 'array', items: text, description: 'Event types delivered; empty: every event.' },
    starts_after: { type: 'string', pattern: '^[0-9]+/[0-9]+$', description: 'The position (COMMIT/PREPARE) after which events are delivered.' },
    created_at: dateTime,
    disabled_at: orNull('string', { format: 'date-time' }),
    disabled_reason: orNull('string'),
  },
};

const delivery = {
  type: 'object',
  title: 'WebhookDelivery',
  additionalProperties: false,
  required: ['id', 'displayed_as', 'event_id', 'attempt', 'status_code', 'delivered', 'error', 'duration_ms', 'attempted_at'],
  properties: {
    id: text, displayed_as: text, event_id: text,
    attempt: { type: 'integer', minimum: 1 },
    status_code: orNull('integer'),
    delivered: { type: 'boolean' },
    error: orNull('string'),
    duration_ms: { type: 'integer', minimum: 0 },
    attempted_at: dateTime,
  },
};

const noBody = { description: 'No parameters: an empty body or {}.', ...jsonSchemaOf(NoBody) };
const TAG = 'triggers';
const MANAGE = 'Needs a full_access token of an admin (403 otherwise).';

export const TRIGGER_ROUTES = {
  list: restRoute(TAG, 'A page of the organisation\'s triggers.', { querystring: PAGE_QUERY(), response: { 200: pagedSchema(trigger) } }),
  item: restRoute(TAG, 'One trigger.', { params: ID_PARAMS, response: { 200: trigger } }),
  create: {
    ...restRoute(TAG, 'Creates a trigger: an event queue for an OAuth client, or a webhook.', {
      body: jsonSchemaOf(TriggerBody),
      response: {
        201: {
          type: 'object', additionalProperties: false, required: ['id', '$path'],
          properties: { id: uuid, secret: { type: 'string', description: 'The webhook signing secret (http-post only), shown once.' }, $path: text },
        },
      },
    }),
    description: `${MANAGE} Unknown fields are refused (422).`,
  },
  delete: { ...restRoute(TAG, 'Deletes a trigger and its queue.', { params: ID_PARAMS, body: noBody, response: { 204: { description: 'Deleted.', type: 'null' } } }), description: MANAGE },
  redrive: {
    ...restRoute(TAG, 'Re-enables a disabled webhook and makes its queued events due now.', {
      params: ID_PARAMS, body: noBody,
      response: {
        200: {
          type: 'object', additionalProperties: false, required: ['id', 'was_disabled', 'disabled_reason', 'requeued', '$path'],
          properties: { id: uuid, was_disabled: { type: 'boolean' }, disabled_reason: orNull('string'), requeued: { type: 'integer', minimum: 0 }, $path: text },
        },
      },
    }),
    description: MANAGE,
  },
  deliveries: restRoute(TAG, 'The webhook delivery log of a trigger, newest first.', {
    params: ID_PARAMS,
    querystring: PAGE_QUERY({ defaultPerPage: DELIVERY_LOG_LIMITS.defaultLimit, maxPerPage: DELIVERY_LOG_LIMITS.maxLimit }),
    response: { 200: pagedSchema(delivery) },
  }),
};
