import { CHAIN_DDL } from './chain.ts';

/**
 * The PostgreSQL event store's tables. `events` is append-only: nothing updates or deletes a row
 * (a trigger enforces it). Global order is (transaction_id, global_position): readers only read
 * below the oldest transaction still in flight, so a slow writer can never be skipped.
 */
export const EVENT_STORE_DDL = `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id   text PRIMARY KEY,
  revision    bigint NOT NULL CHECK (revision >= 0)
);

CREATE TABLE IF NOT EXISTS es_events (
  global_position  bigint GENERATED ALWAYS AS IDENTITY,
  transaction_id   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id        text NOT NULL,
  stream_revision  bigint NOT NULL,
  event_id         uuid NOT NULL,
  event_type       text NOT NULL,
  data             json NOT NULL,
  metadata         json NOT NULL,
  recorded_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (transaction_id, global_position),
  UNIQUE (stream_id, stream_revision),
  UNIQUE (event_id)
);
-- json, not jsonb: an event is kept exactly as it was written, and nothing queries inside events in SQL,
-- so jsonb's conversion (on every append and again on every read) would buy nothing. Stores created
-- with jsonb are converted once.
DO $$
BEGIN
  IF (SELECT data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'es_events' AND column_name = 'data') = 'jsonb' THEN
    ALTER TABLE es_events ALTER COLUMN data TYPE json USING data::json, ALTER COLUMN metadata TYPE json USING metadata::json;
  END IF;
END $$;
-- No index on event_type: readers filter while walking the primary key in global order, and every
-- extra index is paid by every append.
DROP INDEX IF EXISTS es_events_type;

CREATE OR REPLACE FUNCTION es_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'es_events is append-only (% refused)', TG_OP;
END $$;
DROP TRIGGER IF EXISTS es_events_append_only ON es_events;
CREATE TRIGGER es_events_append_only BEFORE UPDATE OR DELETE ON es_events
  FOR EACH ROW EXECUTE FUNCTION es_events_append_only();
${CHAIN_DDL}`;
