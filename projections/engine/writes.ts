/**
 * A projection batch's writes, in order. The inserts between two other statements become one
 * statement per table: a multi-row INSERT for a few rows, a COPY for many (what makes rebuilds fast);
 * other statements run as given.
 */
import type pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { BinaryCopyWriter } from './copy-binary.ts';
import { copyLine } from './copy-text.ts';
import { storableText } from '../../platform/storable-text.ts';
import { Tally, countedColumns, isCounted } from './counts.ts';
import { MIDNIGHT_SPREAD, datedWithinBounds, isDatedWithin } from './dated-within.ts';
import { columnOf, columnTypes, rowValues, schemaPrefix, storedField, storedFields, tableColumns, type Resource } from './resource.ts';
import { SumTally, assertEntering, assertNotSummed, isSummed, siblingTable, sumColumns } from './sums.ts';

/** The rows a statement finds by equality on these fields of a table: the index it needs. */
export interface Lookup {
  resource: Resource;
  table: string;
  fields: string[];
}

/** Rows to insert: those not encoded yet, and (once encodeCopies ran) the COPY data of the others; `count` of both. */
type Insert = { kind: 'insert'; table: string; columns: string[]; types: string[]; rows: unknown[][]; count: number; encoded?: CopyEncoding };
/**
 * A statement whose RETURNING rows are rows gone from a counted or summed table: countedColumns when `counted`, then
 * sumColumns when `summed`. `entering`: rows that got a value of this field instead, entering the sums only of rows with it.
 */
type Removal = { resource: Resource; table: string; counted: boolean; summed: boolean; entering?: string };
type Op = Insert | { kind: 'sql'; text: string; params: unknown[]; lookups?: readonly Lookup[]; removes?: Removal };

export const WRITE_LIMITS = Object.freeze({
  maxRowsPerInsert: 20_000,
  /** From this many rows an insert goes as COPY: its per-row cost is lower, its fixed cost higher. */
  copyFromRows: 500,
  /** COPY data is handed to the connection in chunks of about this many characters. */
  copyChunkChars: 256 * 1024,
});

export interface FlushOptions {
  /** Inserts of at least this many rows go as COPY (default WRITE_LIMITS.copyFromRows). */
  copyFromRows?: number;
  /** Awaited before a statement that looks rows up (an UPDATE or DELETE by some fields). */
  beforeLookup?: (lookup: Lookup) => Promise<void>;
}

export interface WritesOptions {
  /** Keep the sums (Resource.sums) row by row; false: a rebuild's bulk load, which fills them at its end (sums.ts fillSums). */
  sums?: boolean;
}

export class Writes {
  private readonly ops: Op[] = [];
  private readonly tally = new Tally();
  private readonly sums = new SumTally();
  private readonly keepsSums: boolean;

  constructor(options: WritesOptions = {}) {
    this.keepsSums = options.sums ?? true;
  }

  /** Insert ops of the current run of inserts (no other statement since), by table. */
  private insertRun = new Map<string, Insert>();

  /**
   * Inserts a row of `resource` (field names) into the physical table `table`. Inserts into any table
   * join that table's pending statement until some other statement comes: read-model tables have no
   * constraints between them, so only the order against updates and deletes matters.
   */
  insert(resource: Resource, table: string, row: Record<string, unknown>): void {
    const { columns, values } = rowValues(resource, row);
    if (isCounted(resource)) this.tally.row(resource, table, row, 1);
    if (this.keepsSums && isSummed(resource)) this.sums.row(resource, table, row, 1);
    const pending = this.insertRun.get(table);
    if (pending && pending.count < WRITE_LIMITS.maxRowsPerInsert) {
      pending.rows.push(values);
      pending.count++;
      return;
    }
    const op: Insert = { kind: 'insert', table, columns, types: columnTypes(resource), rows: [values], count: 1 };
    this.ops.push(op);
    this.insertRun.set(table, op);
  }

  /** UPDATE by field names: `set` the given fields where every `where` field equals its value. */
  update(resource: Resource, table: string, where: Record<string, unknown>, set: Record<string, unknown>): void {
    const params: unknown[] = [];
    const bind = (name: string, value: unknown) => {
      params.push(value);
      return `${columnOf(resource, name)} = $${params.length}`;
    };
    const changed = Object.entries(set).filter(([, v]) => v !== undefined);
    assertNotCounted(resource, changed.map(([k]) => k));
    if (isSummed(resource)) assertNotSummed(resource, changed.map(([k]) => k));
    const assignments = changed.map(([k, v]) => bind(k, v));
    if (assignments.length === 0) return;
    let organisationParam: string | undefined;
    const conditions = Object.entries(where).map(([k, v]) => {
      const condition = bind(k, v);
      if (k === 'organisationId' && v != null) organisationParam = `$${params.length}`;
      return condition;
    });
    const fields = Object.keys(where);
    // A period's entries (a close, a reopen) are found by the period's dates, over the organisation's date index.
    const parent = fields.find((name) => isDatedWithin(resource, name) && where[name] != null);
    if (parent && organisationParam) {
      params.push([where[parent]]);
      // A replay's parent rows are in its own schema; a rebuild's shadow tables have none and read the live ones.
      conditions.push(...datedWithinBounds(resource, parent, `$${params.length}`, organisationParam, { schemaPrefix: schemaPrefix(table), spread: MIDNIGHT_SPREAD.write }));
      fields.push(resource.datedWithin!.on);
    }
    this.sql(`UPDATE ${table} SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')}`, params, { resource, table, fields });
  }

  /**
   * DELETE by field names. A resource that keeps its deleted rows (keepsDeleted) copies them in the same statement,
   * with `kept`: the values of the kept rows' fields the deleted ones lack (when it was deleted).
   */
  delete(resource: Resource, table: string, where: Record<string, unknown>, kept?: Record<string, unknown>): void {
    const entries = Object.entries(where);
    const params = entries.map(([, v]) => v);
    const deleting = `DELETE FROM ${table} WHERE ${entries.map(([k], i) => `${columnOf(resource, k)} = $${i + 1}`).join(' AND ')}`;
    const counted = isCounted(resource);
    const summed = this.keepsSums && isSummed(resource);
    const returning = [...(counted ? countedColumns(resource) : []), ...(summed ? sumColumns(resource) : [])];
    let text: string;
    if (resource.keepsDeleted) {
      if (!kept) throw new Error(`${resource.typeName} keeps its deleted rows: a delete names their ${resource.keepsDeleted().typeName} values`);
      const keeping = keptRows(resource, table, kept, params);
      text = `WITH gone AS (${deleting} RETURNING *)${returning.length > 0 ? `, kept AS (${keeping}) SELECT ${returning.join(', ')} FROM gone` : ` ${keeping}`}`;
    } else text = returning.length > 0 ? `${deleting} RETURNING ${returning.join(', ')}` : deleting;
    const removes = returning.length > 0 ? { resource, table, counted, summed } : undefined;
    this.statement({ kind: 'sql', text, params, lookups: [{ resource, table, fields: entries.map(([k]) => k) }], removes });
  }

  /**
   * An UPDATE (`text`, without RETURNING; `alias`: the table's name in it) giving rows of a summed resource a value of
   * `field` they had none of (its WHERE must say so), and setting `sets` (field names): the rows enter the sums kept
   * only of rows with `field` (SumSpec.onlyWith); no other sum may read what it sets.
   */
  fill(text: string, params: unknown[], lookups: readonly Lookup[], filled: { resource: Resource; table: string; alias: string; field: string; sets: readonly string[] }): void {
    const { resource, table, alias, field, sets } = filled;
    assertNotCounted(resource, sets);
    assertEntering(resource, field, sets);
    const summed = this.keepsSums && isSummed(resource);
    if (!summed) return this.sql(text, params, lookups);
    this.statement({ kind: 'sql', text: `${text} RETURNING ${sumColumns(resource, alias).join(', ')}`, params, lookups, removes: { resource, table, counted: false, summed, entering: field } });
  }

  /**
   * Any other statement; `lookup` names the fields it finds its rows by, when it does (one per table it
   * searches, when it joins several). It must not add or remove rows of a counted resource (see counts.ts):
   * insert and delete keep the counts.
   */
  sql(text: string, params: unknown[] = [], lookup?: Lookup | readonly Lookup[]): void {
    this.statement({ kind: 'sql', text, params, lookups: lookup === undefined ? undefined : Array.isArray(lookup) ? lookup : [lookup as Lookup] });
  }

  private statement(op: Extract<Op, { kind: 'sql' }>): void {
    this.insertRun.clear();
    this.ops.push(op);
  }

  get size(): number {
    return this.ops.length;
  }

  /** Nothing but inserts: these rows do not depend on any row written before them. */
  get insertsOnly(): boolean {
    return this.ops.every((op) => op.kind === 'insert');
  }

  /**
   * Encodes the rows inserted so far as COPY data now, so that they need not be kept: a rebuild's worker
   * does so between slices of its batch, and holds far fewer objects at once (its collector then copies
   * little). These inserts go as COPY whatever prepare's copyFromRows.
   */
  encodeCopies(): void {
    for (const op of this.ops) {
      if (op.kind !== 'insert' || op.rows.length === 0) continue;
      (op.encoded ??= new CopyEncoding(op.types)).add(op.rows);
      op.rows = [];
    }
  }

  /** The rows, then the counts and sums they change. */
  flush(client: pg.PoolClient, options: FlushOptions = {}): Promise<void> {
    return this.prepare(options.copyFromRows).flush(client, options.beforeLookup);
  }

  /**
   * The statements as they will be sent, inserts of `copyFromRows` rows or more already encoded as COPY
   * data (the costly part, which a rebuild's workers do off the main thread). Empties this Writes of rows;
   * the counts stay with both.
   */
  prepare(copyFromRows: number = WRITE_LIMITS.copyFromRows): PreparedWrites {
    const ops = this.ops.flatMap((op): PreparedOp[] => (op.kind === 'insert' && (op.encoded || op.count >= copyFromRows) ? copiesOf(op) : [op]));
    const prepared = new PreparedWrites(ops, this.tally, this.insertsOnly, this.sums);
    this.ops.length = 0;
    this.insertRun.clear();
    return prepared;
  }
}

type Copy = { kind: 'copy'; table: string; columns: string[]; rows: number; binary: boolean; data: Uint8Array[] };
export type PreparedOp = Copy | Op;

/**
 * An insert's rows as COPY data, encoded as they come: binary when every value of a row has a binary
 * form here (cheaper for the server), as text otherwise. Two COPY statements when both kinds occur:
 * rows of one run of inserts do not depend on each other's order.
 */
class CopyEncoding {
  private readonly binary: BinaryCopyWriter | undefined;
  private readonly text: Buffer[] = [];
  private textChunk = '';
  private textRows = 0;

  constructor(types: readonly string[]) {
    this.binary = BinaryCopyWriter.for(types);
  }

  add(rows: readonly unknown[][]): void {
    for (const row of rows) {
      if (this.binary?.add(row)) continue;
      this.textChunk += copyLine(row);
      this.textRows++;
      if (this.textChunk.length >= WRITE_LIMITS.copyChunkChars) this.endTextChunk();
    }
  }

  private endTextChunk(): void {
    if (this.textChunk.length > 0) this.text.push(Buffer.from(this.textChunk, 'utf8'));
    this.textChunk = '';
  }

  /** The COPY statements' data (the encoding takes no more rows). */
  copies(op: Insert): Copy[] {
    this.endTextChunk();
    const copies: Copy[] = [];
    const copy = (binary: boolean, rows: number, data: Uint8Array[]) => copies.push({ kind: 'copy', table: op.table, columns: op.columns, rows, binary, data });
    if (this.binary && this.binary.rows > 0) copy(true, this.binary.rows, this.binary.finish());
    if (this.textRows > 0) copy(false, this.textRows, this.text);
    return copies;
  }
}

function copiesOf(op: Insert): Copy[] {
  const encoding = op.encoded ?? new CopyEncoding(op.types);
  encoding.add(op.rows);
  return encoding.copies(op);
}

/** A batch's statements ready to send, in order, and the counts and sums they change (Writes.prepare). */
export class PreparedWrites {
  constructor(
    readonly ops: readonly PreparedOp[],
    readonly tally: Tally,
    /** Nothing but inserts: these rows do not depend on any row written before them. */
    readonly insertsOnly: boolean,
    readonly sums: SumTally = new SumTally(),
  ) {}

  /**
   * The rows alone. Writers that run batches side by side (a rebuild) flush counts separately, in
   * commit order: the counts are rows two batches would both lock.
   */
  async flushRows(client: pg.PoolClient, beforeLookup?: FlushOptions['beforeLookup']): Promise<void> {
    // Timestamps without a zone (dates) mean UTC midnight, whatever the server's default zone: rebuilds
    // encode them so (copy-binary.ts), and live writes must agree.
    if (this.ops.length > 0) await client.query(`SET LOCAL TimeZone = 'UTC'`);
    for (const op of this.ops) {
      if (op.kind === 'sql') {
        if (beforeLookup) for (const lookup of op.lookups ?? []) await beforeLookup(lookup);
        const result = await client.query({ text: op.text, values: op.params.map(storableValue), rowMode: 'array' });
        if (op.removes) {
          const { resource, table, counted, summed, entering } = op.removes;
          const rows = result.rows as unknown[][];
          if (counted) this.tally.returned(resource, table, rows, -1);
          if (summed) this.sums.returned(resource, table, rows, counted ? countedColumns(resource).length : 0, entering ? 1 : -1, entering);
        }
      } else if (op.kind === 'copy') {
        await copyInto(client, op);
      } else {
        // One array per column, zipped by unnest: one bind parameter per column however many rows.
        const arrays = op.columns.map((_, c) => op.rows.map((row) => storableValue(row[c])));
        const unnest = op.types.map((type, c) => `$${c + 1}::${type}[]`).join(', ');
        await client.query(`INSERT INTO ${op.table} (${op.columns.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
      }
    }
  }

  flushCounts(client: pg.PoolClient): Promise<void> {
    return this.tally.flush(client);
  }

  flushSums(client: pg.PoolClient): Promise<void> {
    return this.sums.flush(client);
  }

  /** The rows, then the counts and sums they change. */
  async flush(client: pg.PoolClient, beforeLookup?: FlushOptions['beforeLookup']): Promise<void> {
    await this.flushRows(client, beforeLookup);
    await this.flushCounts(client);
    await this.flushSums(client);
  }
}

/** A parameter as a text column takes it: a string without NUL (see copy-text.ts textOf); arrays element by element. */
function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\0') ? storableText(value) : value;
  return Array.isArray(value) ? value.map(storableValue) : value;
}

async function copyInto(client: pg.PoolClient, op: Copy): Promise<void> {
  const copy = client.query(copyFrom(`COPY ${op.table} (${op.columns.join(', ')}) FROM STDIN${op.binary ? ' (FORMAT binary)' : ''}`));
  await pipeline(Readable.from(op.data, { objectMode: false }), copy);
  if (copy.rowCount !== op.rows) throw new Error(`COPY into ${op.table} stored ${copy.rowCount} of ${op.rows} rows`);
}

/** Counts follow inserts and deletes only; moving a row between counted values is a delete and an insert. */
function assertNotCounted(r: Resource, fields: readonly string[]): void {
  const recounted = fields.find((name) => r.countedBy?.includes(name));
  if (recounted) throw new Error(`${r.typeName}.${recounted} is counted: a projection cannot update it in place`);
}

/**
 * The INSERT copying the rows a delete returns (`gone`) into the table of the resource that keeps them: each field
 * both have from the deleted row, the others from `kept` (added to `params`).
 */
function keptRows(r: Resource, table: string, kept: Record<string, unknown>, params: unknown[]): string {
  const into = r.keepsDeleted!();
  const { columns, types } = tableColumns(into);
  const own = new Set(storedFields(r).map((x) => x.name));
  const values = ['organisation_id', ...storedFields(into).map((x, i) => {
    if (x.name in kept) {
      params.push(kept[x.name]);
      return `$${params.length}::${types[i + 1]}`;
    }
    if (!own.has(x.name)) throw new Error(`${into.typeName}.${x.name}: neither a field of ${r.typeName} nor a value the delete names`);
    return storedField(r, x.name).column;
  })];
  return `INSERT INTO ${siblingTable(r, table, into)} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM gone`;
}
