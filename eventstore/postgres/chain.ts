/**
 * The auditor's trail in PostgreSQL: each organisation's events form a hash chain, link n's hash being
 * sha256(link n-1's hash || the event's canonical text), the first link's predecessor sha256('chain:' || org).
 * The canonical text joins, by U+001F, the stream id, revision, event id, type, data and metadata exactly as stored
 * (json keeps the text byte for byte) and recorded_at in microseconds since 1970.
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
import type { AuditChain, ChainHead, ChainLink } from '../port.ts';

export const NO_ORGANISATION = '00000000-0000-0000-0000-000000000000';

/** The event's microseconds, as both SQL (here) and the walk read them. */
const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

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
CREATE OR REPLACE FUNCTION es_chain_text(stream_id text, revision bigint, event_id uuid, type text, data json, metadata json, recorded_at timestamptz)
  RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws(E'\\x1f', stream_id, revision::text, event_id::text, type, data::text, metadata::text, ${MICROS('recorded_at')}) $$;
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
      es_chain_fold(h.hash, es_chain_text(a.stream_id, a.stream_revision, a.event_id, a.event_type, a.data, a.metadata, a.recorded_at)) OVER w AS hash
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
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM es_chain_heads) AND EXISTS (SELECT 1 FROM es_events) THEN
    LOCK TABLE es_events IN SHARE ROW EXCLUSIVE MODE;
    WITH linked AS (
      SELECT es_chain_organisation(metadata) AS organisation_id, row_number() OVER w AS seq, event_id, transaction_id, global_position,
        es_chain_fold(es_chain_genesis(es_chain_organisation(metadata)), es_chain_text(stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at)) OVER w AS hash
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

/** Links read per round trip by a walk, at most. */
const WALK_PAGE = 10_000;
/** Pages a check reads ahead while it hashes: the server reads them on other cores meanwhile. */
const PAGES_AHEAD = 3;

/** The chain as the PostgreSQL store keeps it (eventstore/port.ts AuditChain). */
export function postgresChain(pool: pg.Pool): AuditChain {
  return {
    async head(organisationId) {
      const { rows } = await pool.query(
        // The position from the head's link (0/0 if that was removed: verify then says the head is not the last link).
        `SELECT h.seq::text, h.event_id, encode(h.hash, 'hex') AS hash, coalesce(c.transaction_id::text, '0') AS commit, coalesce(c.global_position, 0)::text AS prepare
         FROM es_chain_heads h LEFT JOIN es_chain c ON c.organisation_id = h.organisation_id AND c.seq = h.seq WHERE h.organisation_id = $1`,
        [organisationId],
      );
      const r = rows[0];
      if (!r || r.event_id === null) return undefined;
      return { eventId: r.event_id, hash: r.hash, eventCount: BigInt(r.seq), position: { commit: BigInt(r.commit), prepare: BigInt(r.prepare) } };
    },
    async walk(organisationId, afterSeq, count) {
      if (!(Number.isInteger(count) && count >= 1 && count <= WALK_PAGE)) throw new RangeError(`walk: count from 1 to ${WALK_PAGE}`);
      // The page of links by the primary key, then each one's event by es_events' own key: no sort, whatever the
      // store's size, and events read in about the order they were stored.
      // The canonical text as one column (five fewer to parse per event); Node hashes it and checks its fields.
      const { rows } = await pool.query<string[]>({
        name: 'es_chain_walk',
        text: `SELECT c.seq::text, encode(c.hash, 'hex'), e.transaction_id::text, e.global_position::text, e.event_id::text,
            es_chain_text(e.stream_id, e.stream_revision, e.event_id, e.event_type, e.data, e.metadata, e.recorded_at)
          FROM (SELECT seq, hash, transaction_id, global_position FROM es_chain WHERE organisation_id = $1 AND seq > $2 AND seq <= $2 + $3 ORDER BY seq) c
          JOIN LATERAL (SELECT * FROM es_events WHERE transaction_id = c.transaction_id AND global_position = c.global_position) e ON TRUE
          ORDER BY c.seq`,
        values: [organisationId, afterSeq.toString(), count],
        rowMode: 'array',
      });
      return rows.map(([seq, hash, commit, prepare, eventId, canonical]): ChainLink => ({
        seq: BigInt(seq),
        hash,
        eventId,
        position: { commit: BigInt(commit), prepare: BigInt(prepare) },
        canonical,
      }));
    },
    async unlinked(organisationId) {
      // Events no link names, of any organisation (an anti-join on ids, reading no event's JSON), then this one's:
      // normally none, so only those few have their metadata read.
      const { rows } = await pool.query(
        `WITH stray AS MATERIALIZED (
           SELECT e.event_id, e.transaction_id, e.global_position, e.metadata FROM es_events e
           WHERE NOT EXISTS (SELECT 1 FROM es_chain c WHERE c.event_id = e.event_id))
         SELECT event_id, transaction_id::text AS commit, global_position::text AS prepare FROM stray
         WHERE es_chain_organisation(metadata) = $1 ORDER BY transaction_id, global_position LIMIT 1`,
        [organisationId],
      );
      const r = rows[0];
      return r && { eventId: r.event_id, position: { commit: BigInt(r.commit), prepare: BigInt(r.prepare) } };
    },
  };
}

/** The first link's predecessor. */
export const chainGenesis = (organisationId: string): Buffer => crypto.createHash('sha256').update(`chain:${organisationId}`, 'utf8').digest();

/** crypto.hash (Node ≥ 20.12): one call per link, half the cost of a Hash object (a million links in a verify). */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }).hash;
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Link n's hash from link n-1's: sha256(previous || canonical as UTF-8). */
export function chainStep(previous: Buffer, canonical: string): Buffer {
  if (!oneShot) return crypto.createHash('sha256').update(previous).update(canonical, 'utf8').digest();
  const size = previous.length + Buffer.byteLength(canonical, 'utf8');
  if (scratch.length < size) scratch = Buffer.allocUnsafe(2 * size);
  previous.copy(scratch, 0);
  scratch.write(canonical, previous.length, 'utf8');
  return oneShot('sha256', scratch.subarray(0, size), 'buffer');
}

export type ChainCheck =
  | { ok: true; head?: ChainHead }
  | { ok: false; broken: { eventId: string; position: ChainLink['position']; seq?: bigint; reason: string } };

/**
 * Recomputes an organisation's chain from its events, in Node, link by link in seq order: the first link whose
 * stored hash differs from the recomputed one, or whose seq leaves a gap, breaks it; so does an event of the
 * organisation that no link names, and a head that is not the last link.
 */
export async function checkChain(chain: AuditChain, organisationId: string, onProgress?: (links: bigint) => void): Promise<ChainCheck> {
  let previous = chainGenesis(organisationId);
  let last: ChainLink | undefined;
  // Pages are seq ranges, so the next ones are read (by other server processes) while this one is hashed.
  const stray = chain.unlinked(organisationId);
  stray.catch(() => {}); // (awaited below; a failure meanwhile is not unhandled)
  const ahead: Promise<ChainLink[]>[] = [];
  let asked = 0n;
  const ask = () => {
    const page = chain.walk(organisationId, asked, WALK_PAGE);
    page.catch(() => {}); // (awaited in turn, unless a link breaks first)
    ahead.push(page);
    asked += BigInt(WALK_PAGE);
  };
  for (let i = 0; i < PAGES_AHEAD; i++) ask();
  for (;;) {
    const links = await ahead.shift()!;
    // An empty range ends the walk: a link missing there or beyond leaves the head past the last link seen.
    if (links.length === 0) break;
    ask();
    for (const link of links) {
      const expectedSeq = (last?.seq ?? 0n) + 1n;
      const broken = (reason: string): ChainCheck => ({ ok: false, broken: { eventId: link.eventId, position: link.position, seq: link.seq, reason } });
      if (link.seq !== expectedSeq) return broken(`link ${expectedSeq} is missing`);
      previous = chainStep(previous, link.canonical);
      if (previous.toString('hex') !== link.hash) return broken('its content does not match its hash');
      last = link;
    }
    onProgress?.(last!.seq);
  }
  const unlinked = await stray;
  if (unlinked) return { ok: false, broken: { ...unlinked, reason: 'no link names it (stored around the chain)' } };
  const head = await chain.head(organisationId);
  if (!last) return head ? { ok: false, broken: { eventId: head.eventId, position: head.position, seq: head.eventCount, reason: 'the head names a link the chain does not have' } } : { ok: true };
  if (!head || head.eventCount !== last.seq || head.hash !== last.hash) {
    return { ok: false, broken: { eventId: last.eventId, position: last.position, seq: last.seq, reason: 'the head does not name the last link' } };
  }
  return { ok: true, head };
}
