/**
 * Events in PostgreSQL's binary COPY format, for bulk readers that decode them on other threads (a
 * rebuild's workers, see StoredBatch). The server sends ids, numbers and times as it stores them and
 * JSON as its text, so it converts nothing, the reading thread only finds where rows end, and the
 * whole batch moves to a worker as one buffer. https://www.postgresql.org/docs/current/sql-copy.html
 */
import type { GlobalPosition, RecordedEvent } from '../port.ts';

/** Each row's fields, in this order (decodeCopyBatch reads them so). */
export const COPY_BATCH_COLUMNS = 'event_id, event_type, stream_id, stream_revision, transaction_id, global_position, recorded_at, data, metadata';
const FIELDS = 9;

const SIGNATURE_BYTES = 11;
const EPOCH_2000_MS = Date.UTC(2000, 0, 1);
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Where the rows start: after the signature, the flags and the header extension. */
function firstRow(data: Buffer): number {
  if (data.length < SIGNATURE_BYTES + 8 || data.toString('latin1', 0, SIGNATURE_BYTES) !== 'PGCOPY\n\xff\r\n\0') throw new Error('not binary COPY data');
  return SIGNATURE_BYTES + 8 + data.readInt32BE(SIGNATURE_BYTES + 4);
}

/** The start of each row (and where its fields start), walking lengths only; throws on a malformed batch. */
function* rows(data: Buffer): Generator<number[]> {
  let at = firstRow(data);
  for (;;) {
    const fields = data.readInt16BE(at);
    if (fields === -1) return;
    if (fields !== FIELDS) throw new Error(`binary COPY row of ${fields} fields, expected ${FIELDS}`);
    at += 2;
    const starts: number[] = [];
    for (let f = 0; f < FIELDS; f++) {
      const length = data.readInt32BE(at);
      if (length < 0) throw new Error('binary COPY: an event field is null');
      starts.push(at + 4);
      at += 4 + length;
    }
    starts.push(at + 4); // (so that field f ends at starts[f + 1] - 4)
    yield starts;
  }
}

const position = (data: Buffer, starts: number[]): GlobalPosition => ({ commit: data.readBigUInt64BE(starts[4]), prepare: data.readBigInt64BE(starts[5]) });

/** How many events a batch holds and the last one's position (undefined when it holds none). */
export function copyBatchInfo(data: Buffer): { count: number; last: GlobalPosition } | undefined {
  let count = 0;
  let last: number[] | undefined;
  for (const starts of rows(data)) {
    count++;
    last = starts;
  }
  return last && { count, last: position(data, last) };
}

function uuidText(data: Buffer, at: number): string {
  let s = '';
  for (let b = 0; b < 16; b++) {
    if (b === 4 || b === 6 || b === 8 || b === 10) s += '-';
    s += HEX[data[at + b]];
  }
  return s;
}

/** The batch's events, as readAll would give them. */
export function decodeCopyBatch(bytes: Uint8Array): RecordedEvent[] {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (starts: number[], f: number) => data.toString('utf8', starts[f], starts[f + 1] - 4);
  const events: RecordedEvent[] = [];
  for (const starts of rows(data)) {
    const micros = data.readBigInt64BE(starts[6]);
    events.push({
      id: uuidText(data, starts[0]),
      type: text(starts, 1),
      streamId: text(starts, 2),
      revision: data.readBigInt64BE(starts[3]),
      position: position(data, starts),
      // Milliseconds, as the driver makes them of the text (the microseconds below one are dropped).
      recordedAt: new Date(EPOCH_2000_MS + Number(micros / 1000n - (micros < 0n && micros % 1000n !== 0n ? 1n : 0n))),
      data: JSON.parse(text(starts, 7)),
      metadata: JSON.parse(text(starts, 8)),
    });
  }
  return events;
}
