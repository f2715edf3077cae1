/**
 * The auditor's trail in PostgreSQL: each organisation's events form a hash chain, link n's hash being
 * sha256(link n-1's hash || the event's canonical text), the first link's predecessor sha256('chain:' || org).
 * The canonical text joins, by U+001F, the event's global position (transaction id, position), stream id, revision,
 * event id, type, data and metadata exactly as stored (json keeps the text byte for byte) and recorded_at in
 * microseconds since 1970: moving an event in global order breaks its link as changing it does.
 *
 * The links are made by a statement-level trigger on es_events, in the append's own statement and transaction: the
 * append SQL is unchanged and costs no extra round trip. The organisation's head row is taken FOR UPDATE, so an
 * organisation's appends serialise from the trigger to their commit (appends of different organisations never
 * wait on each other), and chain order is commit order within an organisation, which global position order need
 * not be: the chain is walked by `seq`. Events without an organisation go on the nil-UUID chain.
 * Stores made before the chain are linked once, by the migration, in global order.
 */
import * as crypto from 'node:crypto';
import type pg from 'pg';
import type { AuditChain, ChainBreak, ChainHead } from '../port.ts';

export const NO_ORGANISATION = '00000000-0000-0000-0000-000000000000';

/**
 * The canonical text of the es_events row `e` (a column prefix: 'e.' or '' for the trigger function's parameters).
 * One definition for the trigger and verify: verify writes it inline in its own query, calling no function stored
 * in the database (which someone with the database's keys could replace to make anything verify).
 */
const canonicalText = (e: string) => `concat_ws(E'\\x1f', ${e}transaction_id::text, ${e}global_position::text, ${e}stream_id, ${e}stream_revision::text,
  ${e}event_id::text, ${e}event_type, ${e}data::text, ${e}metadata::text, (extract(epoch FROM ${e}recorded_at) * 1000000)::bigint::text)`;
const UUID_TEXT = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
/** The organisation of the event `e`'s metadata as uuid text (the nil UUID when it names none); lower() is what es_events_organisation indexes. */
const organisationText = (e: string) => `CASE WHEN lower(${e}metadata->>'organisationId') ~ ${UUID_TEXT} THEN lower(${e}metadata->>'organisationId') ELSE '${NO_ORGANISATION}' END`;

export const CHAIN_DDL = `
CREATE TABLE IF NOT EXISTS es_chain_heads (
  organisation_id  uuid PRIMARY KEY,
  seq              bigint NOT NULL,
  hash             bytea NOT NULL,
  event_id         uuid
);
CREATE TABLE IF NOT EXISTS es_chain (
  organisation_id  uuid NOT NULL,
  seq              bigint NOT NULL,
  event_id         uuid NOT NULL,
  -- The event's key in es_events: a walk reads events in the order they were stored, not scattered by id.
  transaction_id   xid8 NOT NULL,
  global_position  bigint NOT NULL,
  hash             bytea NOT NULL,
  PRIMARY KEY (organisation_id, seq)
);

CREATE OR REPLACE FUNCTION es_chain_organisation(metadata json) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN metadata->>'organisationId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    THEN (metadata->>'organisationId')::uuid ELSE '${NO_ORGANISATION}'::uuid END $$;
CREATE OR REPLACE FUNCTION es_chain_genesis(organisation_id uuid) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT sha256(convert_to('chain:' || organisation_id::text, 'UTF8')) $$;
DROP FUNCTION IF EXISTS es_chain_text(text, bigint, uuid, text, json, json, timestamptz);
CREATE OR REPLACE FUNCTION es_chain_text(transaction_id xid8, global_position bigint, stream_id text, stream_revision bigint, event_id uuid, event_type text, data json, metadata json, recorded_at timestamptz)
  RETURNS text LANGUAGE sql STABLE AS $$
  SELECT ${canonicalText('')} $$;
-- An organisation's events without reading every organisation's (verify's check for events no link names).
CREATE INDEX IF NOT EXISTS es_events_organisation ON es_events ((lower(metadata->>'organisationId')));
-- A running fold: over a window ordered by the chain, each row's value is its link's hash.
CREATE OR REPLACE FUNCTION es_chain_step(state bytea, start bytea, body text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT sha256(coalesce(state, start) || convert_to(body, 'UTF8')) $$;
CREATE OR REPLACE AGGREGATE es_chain_fold(bytea, text) (SFUNC = es_chain_step, STYPE = bytea);

CREATE OR REPLACE FUNCTION es_chain_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO es_chain_heads (organisation_id, seq, hash)
    SELECT DISTINCT es_chain_organisation(metadata), 0, es_chain_genesis(es_chain_organisation(metadata)) FROM added
    ON CONFLICT (organisation_id) DO NOTHING;
  -- Heads locked in one order (an append of several organisations' events cannot deadlock with another).
  WITH heads AS (
    SELECT organisation_id, seq, hash FROM es_chain_heads
    WHERE organisation_id IN (SELECT es_chain_organisation(metadata) FROM added) ORDER BY organisation_id FOR UPDATE
  ), linked AS (
    SELECT h.organisation_id, h.seq + row_number() OVER w AS seq, a.event_id, a.transaction_id, a.global_position,
      es_chain_fold(h.hash, es_chain_text(a.transaction_id, a.global_position, a.stream_id, a.stream_revision, a.event_id, a.event_type, a.data, a.metadata, a.recorded_at)) OVER w AS hash
    FROM added a JOIN heads h ON h.organisation_id = es_chain_organisation(a.metadata)
    WINDOW w AS (PARTITION BY h.organisation_id ORDER BY a.global_position ROWS UNBOUNDED PRECEDING)
  ), chained AS (
    INSERT INTO es_chain (organisation_id, seq, event_id, transaction_id, global_position, hash)
      SELECT organisation_id, seq, event_id, transaction_id, global_position, hash FROM linked
  )
  UPDATE es_chain_heads h SET seq = l.seq, hash = l.hash, event_id = l.event_id
  FROM (SELECT DISTINCT ON (organisation_id) * FROM linked ORDER BY organisation_id, seq DESC) l
  WHERE h.organisation_id = l.organisation_id;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS es_events_chain ON es_events;
CREATE TRIGGER es_events_chain AFTER INSERT ON es_events REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION es_chain_link();

-- Once: a store from before the chain gets its events linked in global order. The migration is one transaction
-- and its CREATE TRIGGER already holds appends off (SHARE ROW EXCLUSIVE) until the links and the trigger commit.
-- Links without heads are a chain tampered with (its heads deleted): relinking would hide that, so start-up stops.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM es_chain_heads) AND EXISTS (SELECT 1 FROM es_chain) THEN
    RAISE EXCEPTION 'es_chain has links but es_chain_heads is empty: the chain heads were removed; restore them (or the store) before starting, the chain is not relinked over its links'
      USING ERRCODE = 'data_corrupted';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM es_chain_heads) AND EXISTS (SELECT 1 FROM es_events) THEN
    LOCK TABLE es_events IN SHARE ROW EXCLUSIVE MODE;
    WITH linked AS (
      SELECT es_chain_organisation(metadata) AS organisation_id, row_number() OVER w AS seq, event_id, transaction_id, global_position,
        es_chain_fold(es_chain_genesis(es_chain_organisation(metadata)), es_chain_text(transaction_id, global_position, stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at)) OVER w AS hash
      FROM es_events
      WINDOW w AS (PARTITION BY es_chain_organisation(metadata) ORDER BY transaction_id, global_position ROWS UNBOUNDED PRECEDING)
    ), chained AS (
      INSERT INTO es_chain (organisation_id, seq, event_id, transaction_id, global_position, hash)
        SELECT organisation_id, seq, event_id, transaction_id, global_position, hash FROM linked
    )
    INSERT INTO es_chain_heads (organisation_id, seq, hash, event_id)
      SELECT DISTINCT ON (organisation_id) organisation_id, seq, hash, event_id FROM linked ORDER BY organisation_id, seq DESC;
  END IF;
END $$;
`;

/** Links one check query recomputes, at most (a range: its break, if any, is all it answers). */
export const CHECK_RANGE = 25_000;
/** Ranges checked at once, each on its own connection (the server hashes them on its cores). */
const CHECK_PARALLEL = 2;

/**
 * Whether the event `e` is (`=`) or is not (`IS DISTINCT FROM`) of the organisation $1 (lower-case text): for an
 * organisation, its id in lower case (what es_events_organisation indexes; a regular expression per event would
 * cost more than its hash); for the nil UUID, the events naming none.
 */
const organisationTest = (organisationId: string) => (e: string, operator: '=' | 'IS DISTINCT FROM') => organisationId === NO_ORGANISATION
  ? `${organisationText(e)} ${operator} $1::text`
  : `lower(${e}metadata->>'organisationId') ${operator} $1::text`;

const positionOf = (commit: string, prepare: string) => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

/** The chain as the PostgreSQL store keeps it (eventstore/port.ts AuditChain). */
export function postgresChain(pool: pg.Pool): AuditChain {
  return {
    async head(organisationId) {
      const { rows } = await pool.query(
        // The position from the head's link (0/0 if that was removed: verify then says the head names a link it does not have).
        `SELECT h.seq::text, h.event_id, encode(h.hash, 'hex') AS hash, coalesce(c.transaction_id::text, '0') AS commit, coalesce(c.global_position, 0)::text AS prepare
         FROM es_chain_heads h LEFT JOIN es_chain c ON c.organisation_id = h.organisation_id AND c.seq = h.seq WHERE h.organisation_id = $1`,
        [organisationId],
      );
      const r = rows[0];
      if (!r || r.event_id === null) return undefined;
      return { eventId: r.event_id, hash: r.hash, eventCount: BigInt(r.seq), position: positionOf(r.commit, r.prepare) };
    },
    async link(organisationId, seq) {
      const { rows: [r] } = await pool.query(
        `SELECT event_id, encode(hash, 'hex') AS hash, transaction_id::text AS commit, global_position::text AS prepare FROM es_chain WHERE organisation_id = $1 AND seq = $2`,
        [organisationId, seq.toString()],
      );
      return r && { seq, eventId: r.event_id, hash: r.hash, position: positionOf(r.commit, r.prepare) };
    },
    async check(organisationId, fromSeq, toSeq) {
      const ofOrganisation = organisationTest(organisationId);
      if (!(fromSeq >= 1n && toSeq >= fromSeq && toSeq - fromSeq < BigInt(CHECK_RANGE))) throw new RangeError(`check: 1 ≤ fromSeq ≤ toSeq, at most ${CHECK_RANGE} links`);
      // Each link against the hash stored before it (the link before the range too): ranges hold independently.
      // The hash is recomputed in the server (sha256 and convert_to are built-ins); only a break comes back.
      const { rows: [r] } = await pool.query<string[]>({
        name: organisationId === NO_ORGANISATION ? 'es_chain_check_none' : 'es_chain_check',
        text: `WITH links AS (
            SELECT seq, hash, event_id, transaction_id, global_position, lag(seq) OVER w AS seq_before, lag(hash) OVER w AS hash_before
            FROM es_chain WHERE organisation_id = $1::uuid AND seq >= $2::bigint - 1 AND seq <= $3::bigint
            WINDOW w AS (ORDER BY seq)
          ), checked AS (
            SELECT l.seq, l.event_id, l.transaction_id, l.global_position,
              CASE WHEN l.seq <> coalesce(l.seq_before, 0) + 1 THEN 'link ' || (coalesce(l.seq_before, 0) + 1) || ' is missing'
                WHEN e.event_id IS NULL THEN 'its event is missing'
                WHEN e.event_id <> l.event_id THEN 'its event is not the one it names'
                WHEN ${ofOrganisation('e.', 'IS DISTINCT FROM')} THEN 'its event belongs to another organisation'
                WHEN sha256(CASE WHEN l.seq = 1 THEN $4::bytea ELSE l.hash_before END || convert_to(${canonicalText('e.')}, 'UTF8')) <> l.hash
                  THEN 'its content does not match its hash' END AS reason
            -- Each link's event by es_events' key (lateral: a hash join would scan every event for each range).
            FROM links l LEFT JOIN LATERAL (SELECT * FROM es_events WHERE transaction_id = l.transaction_id AND global_position = l.global_position) e ON TRUE
            WHERE l.seq >= $2::bigint
          )
          SELECT seq::text, event_id::text, transaction_id::text, global_position::text, reason FROM checked WHERE reason IS NOT NULL ORDER BY checked.seq LIMIT 1`,
        values: [organisationId.toLowerCase(), fromSeq.toString(), toSeq.toString(), chainGenesis(organisationId)],
        rowMode: 'array',
      });
      if (!r) return undefined;
      const [seq, eventId, commit, prepare, reason] = r;
      return { seq: BigInt(seq), eventId, position: positionOf(commit, prepare), reason };
    },
    async unlinked(organisationId) {
      const ofOrganisation = organisationTest(organisationId);
      // The organisation's events (by es_events_organisation; the nil UUID's: those naming none, a full scan)
      // that no link of its own chain names.
      const { rows } = await pool.query(
        // (Materialized: with the LIMIT beside it the planner would pick a nested-loop anti-join, minutes long.)
        `WITH stray AS MATERIALIZED (
           SELECT e.event_id, e.transaction_id, e.global_position FROM es_events e
           WHERE ${ofOrganisation('e.', '=')} AND NOT EXISTS (SELECT 1 FROM es_chain c WHERE c.organisation_id = $1::uuid AND c.event_id = e.event_id))
         SELECT event_id, transaction_id::text AS commit, global_position::text AS prepare FROM stray ORDER BY transaction_id, global_position LIMIT 1`,
        [organisationId.toLowerCase()],
      );
      const r = rows[0];
      return r && { eventId: r.event_id, position: positionOf(r.commit, r.prepare) };
    },
  };
}

/** The first link's predecessor. */
export const chainGenesis = (organisationId: string): Buffer => crypto.createHash('sha256').update(`chain:${organisationId.toLowerCase()}`, 'utf8').digest();

export type ChainCheck = { ok: true; head?: ChainHead } | { ok: false; broken: ChainBreak };

/** A hash an auditor noted for a link: `ledger verify --expect SEQ:HASH`. */
export interface ExpectedLink { seq: bigint; hash: string }

/**
 * Recomputes an organisation's chain up to the head read first (appends meanwhile add links past it, which this
 * check leaves to the next): the lowest link that does not hold breaks it (ranges checked in parallel; the lowest
 * break of all is the first), so does an event of the organisation that no link of its chain names, a head that is
 * not the link at its seq, and an expected link whose hash is not the one noted.
 */
export async function checkChain(chain: AuditChain, organisationId: string, options: { expect?: ExpectedLink[]; onProgress?: (links: bigint) => void } = {}): Promise<ChainCheck> {
  const head = await chain.head(organisationId);
  const last = head?.eventCount ?? 0n;
  let first: ChainBreak | undefined;
  const firstBreak = (b: ChainBreak | undefined) => {
    if (b && (first === undefined || (b.seq ?? 0n) < (first.seq ?? 0n))) first = b;
  };
  let next = 1n;
  let done = 0n;
  const worker = async () => {
    // Ranges above a break found already cannot hold the first one.
    while (next <= last && (first?.seq === undefined || next < first.seq)) {
      const from = next;
      const to = from + BigInt(CHECK_RANGE) - 1n < last ? from + BigInt(CHECK_RANGE) - 1n : last;
      next = to + 1n;
      firstBreak(await chain.check(organisationId, from, to));
      done += to - from + 1n;
      options.onProgress?.(done);
    }
  };
  const [stray] = await Promise.all([chain.unlinked(organisationId), ...Array.from({ length: CHECK_PARALLEL }, worker)]);
  if (first) return { ok: false, broken: first };
  if (stray) return { ok: false, broken: { ...stray, reason: 'no link names it (stored around the chain)' } };
  if (!head) return { ok: true };
  const atHead = await chain.link(organisationId, head.eventCount);
  if (!atHead) return { ok: false, broken: { eventId: head.eventId, position: head.position, seq: head.eventCount, reason: 'the head names a link the chain does not have' } };
  if (atHead.hash !== head.hash || atHead.eventId !== head.eventId) {
    return { ok: false, broken: { eventId: atHead.eventId, position: atHead.position, seq: atHead.seq, reason: 'the head does not name the last link' } };
  }
  for (const expected of options.expect ?? []) {
    // Every link up to the head was recomputed above: its stored hash is its content's.
    const link = expected.seq <= head.eventCount ? await chain.link(organisationId, expected.seq) : undefined;
    if (!link) return { ok: false, broken: { eventId: head.eventId, position: head.position, seq: expected.seq, reason: `expected link ${expected.seq}, the chain has ${head.eventCount} links` } };
    if (link.hash !== expected.hash.toLowerCase()) return { ok: false, broken: { eventId: link.eventId, position: link.position, seq: link.seq, reason: `its hash is ${link.hash}, not the ${expected.hash} expected` } };
  }
  return { ok: true, head };
}
