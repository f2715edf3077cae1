/**
 * Triggers, the delivery queue and its leased batches. One queue table serves both kinds of trigger:
 * event-queue rows wait for a consumer's list/ack, http-post rows for the webhook dispatcher.
 * UNIQUE (trigger_id, event_id) makes fan-out idempotent: each event enters each queue once.
 */
export const EVENT_QUEUE_DDL = `
CREATE TABLE IF NOT EXISTS triggers (
  id              uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  type            text NOT NULL CHECK (type IN ('event-queue', 'http-post')),
  client_id       text REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  url             text,
  secret          text,
  events          text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  disabled_at     timestamptz,
  disabled_reason text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  CHECK ((type = 'event-queue' AND client_id IS NOT NULL) OR (type = 'http-post' AND url IS NOT NULL AND secret IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS triggers_organisation ON triggers (organisation_id);

CREATE TABLE IF NOT EXISTS event_queue (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trigger_id      uuid NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
  organisation_id uuid NOT NULL,
  event_id        uuid NOT NULL,
  commit_pos      xid8 NOT NULL,
  prepare_pos     bigint NOT NULL,
  object          text NOT NULL,
  action          text NOT NULL,
  record_key      text NOT NULL,
  record_id       text NOT NULL,
  payload         jsonb NOT NULL,
  recorded_at     timestamptz NOT NULL,
  enqueued_at     timestamptz NOT NULL DEFAULT now(),
  batch_id        uuid,
  leased_until    timestamptz,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (trigger_id, event_id)
);
CREATE INDEX IF NOT EXISTS event_queue_order ON event_queue (trigger_id, commit_pos, prepare_pos);
CREATE INDEX IF NOT EXISTS event_queue_batch ON event_queue (batch_id) WHERE batch_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS event_batches (
  ack_id       uuid PRIMARY KEY,
  trigger_id   uuid NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
  event_count  integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  leased_until timestamptz NOT NULL,
  acked_at     timestamptz
);

CREATE TABLE IF NOT EXISTS event_queue_drops (
  trigger_id uuid PRIMARY KEY REFERENCES triggers(id) ON DELETE CASCADE,
  dropped    bigint NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trigger_id   uuid NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
  event_id     uuid NOT NULL,
  attempt      integer NOT NULL,
  status_code  integer,
  error        text,
  duration_ms  integer NOT NULL,
  delivered_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_trigger ON webhook_deliveries (trigger_id, delivered_at DESC);
`;

/** One event queue per OAuth client within an organisation: its trigger is unique. */
export const EVENT_QUEUE_UNIQUE_DDL = `
CREATE UNIQUE INDEX IF NOT EXISTS triggers_one_queue_per_client ON triggers (organisation_id, client_id) WHERE type = 'event-queue';`;

/**
 * Where a trigger's queue starts: it receives the events after this position (exclusive) and no earlier
 * one, whenever the fan-out gets to them. createTrigger sets it (the store's head at creation by default).
 * Triggers made before the column existed start at the beginning, as they always did.
 *
 * A trigger made 'now' on the PostgreSQL store starts at its creation's snapshot instead: it receives the
 * events of the transactions that snapshot does not see (committed after it), whatever their position. A
 * position cannot say that: an append in flight at creation commits below the head read then.
 */
export const TRIGGER_START_DDL = `
ALTER TABLE triggers ADD COLUMN IF NOT EXISTS starts_after_commit xid8 NOT NULL DEFAULT '0';
ALTER TABLE triggers ADD COLUMN IF NOT EXISTS starts_after_prepare bigint NOT NULL DEFAULT 0;
ALTER TABLE triggers ADD COLUMN IF NOT EXISTS starts_at_snapshot pg_snapshot;`;
