/**
 * Auditors' replay: the books of one organisation as they stood at a moment (or a global position),
 * rebuilt from the events into a schema of their own. The live read models are untouched; the copy is
 * made read-only (its tables belong to the replay, writes are revoked from PUBLIC) and can be queried
 * or dropped. The same projections as the live read models do the work, so a replay at "now" equals
 * the live books of that organisation.
 *
 * Progress is saved in the replay's schema with every batch: an interrupted replay (a signal, a crash)
 * resumes where it stopped when run again with the same cut-off; a finished one is made afresh.
 */
import type pg from 'pg';
import { START, comparePositions, type EventStore, type GlobalPosition } from '../../eventstore/port.ts';
import { inTransaction } from '../../platform/database.ts';
import { project, type Projection } from './projection.ts';
import { countsDdl, COUNTS_TABLE } from './counts.ts';
import { tableDdl, type Resource } from './resource.ts';
import { Writes } from './writes.ts';

export const REPLAY_LIMITS = Object.freeze({
  batchSize: 5000,
  /** How long an empty read below the last committed event waits for the store to show it, and for how many waits. */
  holdBackPollMs: 50,
  holdBackWaits: 600,
});

export interface ReplayOptions {
  organisationId: string;
  asOf?: Date;
  position?: GlobalPosition;
  onProgress?: (eventsRead: number) => void;
  /** Stops between batches; the next run with the same cut-off resumes. */
  signal?: AbortSignal;
  batchSize?: number;
}

export interface ReplayResult {
  schema: string;
  eventsApplied: number;
  lastPosition: string | null;
  trialBalance: { code: string; name: string; debit: string; credit: string; balance: string }[];
  totals: { debit: string; credit: string };
}

/** Stops before the first event past the cut-off: recorded after `asOf`, or after `position`. */
function pastCutOff(e: { recordedAt: Date; position: GlobalPosition }, o: ReplayOptions): boolean {
  if (o.asOf && e.recordedAt > o.asOf) return true;
  if (o.position && (e.position.commit > o.position.commit || (e.position.commit === o.position.commit && e.position.prepare > o.position.prepare))) return true;
  return false;
}

export async function replayOrganisation(pool: pg.Pool, store: EventStore, projections: Projection[], o: ReplayOptions): Promise<ReplayResult> {
  const stamp = (o.asOf ? o.asOf.toISOString() : `p${o.position?.commit}_${o.position?.prepare}`).replace(/[^0-9a-z]/gi, '').toLowerCase();
  const schema = `replay_${o.organisationId.replace(/-/g, '').slice(0, 12)}_${stamp}`.slice(0, 63);
  const tableOf = (r: Resource) => `${schema}.${r.table}`;
  const progressTable = `${schema}.replay_progress`;
  const saved = await pool.query(`SELECT commit_pos::text AS commit, prepare_pos AS prepare, events_read, events_applied, last_applied FROM ${progressTable} WHERE NOT finished`).catch(() => ({ rows: [] }));
  let from = START;
  let applied = 0;
  let read = 0;
  let last: string | null = null;
  if (saved.rows.length === 1) {
    const p = saved.rows[0];
    [from, read, applied, last] = [{ commit: BigInt(p.commit), prepare: BigInt(p.prepare) }, Number(p.events_read), Number(p.events_applied), p.last_applied];
  } else {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.query(`CREATE SCHEMA ${schema}`);
    for (const p of projections) for (const r of p.resources) await pool.query(tableDdl(r, tableOf(r)));
    await pool.query(countsDdl(`${schema}.${COUNTS_TABLE}`));
    await pool.query(`CREATE TABLE ${progressTable} (commit_pos xid8 NOT NULL, prepare_pos bigint NOT NULL, events_read bigint NOT NULL, events_applied bigint NOT NULL, last_applied text, finished boolean NOT NULL);
      INSERT INTO ${progressTable} VALUES ('0', 0, 0, 0, NULL, false)`);
  }

  const eventTypes = [...new Set(projections.flatMap((p) => p.eventTypes))];
  const batchSize = Math.min(o.batchSize ?? REPLAY_LIMITS.batchSize, REPLAY_LIMITS.batchSize);
  // The last event the replay must have read: a store may hold commits back from readers for a while (PostgreSQL's
  // horizon, behind any older transaction still open), so an empty read short of it means "not yet", not "the end".
  const committed = store.committedHead ? await store.committedHead({ eventTypes }) : await store.headPosition();
  const target = o.position && comparePositions(o.position, committed) < 0 ? o.position : committed;
  for (let done = false, waits = 0; !done; ) {
    if (o.signal?.aborted) throw new Error(`replay interrupted at ${read} events; run it again with the same cut-off to resume`);
    const batch = await store.readAll(from, { maxCount: batchSize, filter: { eventTypes } });
    if (batch.length === 0) {
      if (comparePositions(from, target) >= 0) break;
      if (++waits > REPLAY_LIMITS.holdBackWaits) throw new Error(`replay: events up to ${target.commit}/${target.prepare} are committed but not readable after ${waits - 1} waits; run it again to resume`);
      await new Promise((r) => setTimeout(r, REPLAY_LIMITS.holdBackPollMs));
      continue;
    }
    waits = 0;
    const cut = batch.findIndex((e) => pastCutOff(e, o));
    const inScope = (cut === -1 ? batch : batch.slice(0, cut)).filter((e) => e.metadata.organisationId === o.organisationId);
    done = cut !== -1;
    read += cut === -1 ? batch.length : cut;
    applied += inScope.length;
    if (inScope.length > 0) last = `${inScope[inScope.length - 1].position.commit}/${inScope[inScope.length - 1].position.prepare}`;
    from = batch[batch.length - 1].position;
    await inTransaction(pool, async (client) => {
      const writes = new Writes();
      for (const p of projections) await project(p, inScope.filter((e) => p.eventTypes.includes(e.type)), writes, tableOf, client);
      await writes.flush(client);
      await client.query(`UPDATE ${progressTable} SET commit_pos = $1::text::xid8, prepare_pos = $2, events_read = $3, events_applied = $4, last_applied = $5`, [
        from.commit.toString(), from.prepare.toString(), read, applied, last,
      ]);
    });
    o.onProgress?.(read);
  }
  await pool.query(`UPDATE ${progressTable} SET finished = true`);
  await pool.query(`REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA ${schema} FROM PUBLIC`);

  const { rows } = await pool.query(
    `SELECT a.code, a.name, sum(l.debit_amount) AS debit, sum(l.credit_amount) AS credit, sum(l.debit_amount - l.credit_amount) AS balance
     FROM ${schema}.accounting_entry_lines l JOIN ${schema}.accounting_accounts a ON a.id = l.sub_account_id
     GROUP BY a.code, a.name ORDER BY a.code`,
  );
  const totals = await pool.query(`SELECT coalesce(sum(debit_amount), 0) AS debit, coalesce(sum(credit_amount), 0) AS credit FROM ${schema}.accounting_entry_lines`);
  return {
    schema,
    eventsApplied: applied,
    lastPosition: last,
    trialBalance: rows,
    totals: totals.rows[0],
  };
}
