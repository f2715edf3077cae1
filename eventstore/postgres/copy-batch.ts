/**
 * Events in PostgreSQL's binary COPY format, for bulk readers that decode them on other threads (a
 * rebuild's workers, see StoredBatch). The server sends ids, numbers and times as it stores them and
 * JSON as its text, so it converts nothing, the reading thread only finds where rows end, and the
 * whole batch moves to a worker as one buffer. https://www.postgresql.org/docs/current/sql-copy.html
 */
import type { GlobalPosition, RecordedEvent } from '../port.ts';
import { upcastEvent } from '../upcasters.ts';

/**
 * Each row's fields, in this order (decodeCopySlices reads them so). JSON as stored: json's binary form is
 * its text, and a cast to text would cost the server an output and an input conversion per value (about
 * 2 µs an event, half its work in a rebuild's read). jsonb's binary form is its text after a version byte.
 */
export const COPY_BATCH_COLUMNS = 'event_id, event_type, stream_id, stream_revision, transaction_id, global_position, recorded_at, data, metadata';
/** The version byte jsonb's binary form starts with (a store made before es_events held json). */
const JSONB_VERSION = 1;
const FIELDS = 9;

const SIGNATURE_BYTES = 11;
const EPOCH_2000_MS = Date.UTC(2000, 0, 1);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/** Where the rows start: after the signature, the flags and the header extension. */
function firstRow(data: Buffer): number {
  if (data.length < SIGNATURE_BYTES + 8 || data.toString('latin1', 0, SIGNATURE_BYTES) !== 'PGCOPY\n\xff\r\n\0') throw new Error('not binary COPY data');
  return SIGNATURE_BYTES + 8 + data.readInt32BE(SIGNATURE_BYTES + 4);
}

/** Where the row at `at` starts its fields (and where it ends: the last element, so that field f ends at starts[f + 1] - 4). */
function fieldStarts(data: Buffer, at: number): number[] {
  const starts: number[] = [];
  let field = rowFields(data, at);
  for (let f = 0; f < FIELDS; f++) {
    starts.push(field + 4);
    field = nextField(data, field);
  }
  starts.push(field + 4);
  return starts;
}

/** The first field of the row at `at`, checking the row's field count. */
function rowFields(data: Buffer, at: number): number {
  const fields = data.readInt16BE(at);
  if (fields !== FIELDS) throw new Error(`binary COPY row of ${fields} fields, expected ${FIELDS}`);
  return at + 2;
}

function nextField(data: Buffer, at: number): number {
  const length = data.readInt32BE(at);
  if (length < 0) throw new Error('binary COPY: an event field is null');
  return at + 4 + length;
}

const isEnd = (data: Buffer, at: number) => data.readInt16BE(at) === -1;

/** The start of each row (and where its fields start), walking lengths only; throws on a malformed batch. */
function* rows(data: Buffer): Generator<number[]> {
  for (let at = firstRow(data); !isEnd(data, at); ) {
    const starts = fieldStarts(data, at);
    yield starts;
    at = starts[FIELDS] - 4;
  }
}

const position = (data: Buffer, starts: number[]): GlobalPosition => ({ commit: data.readBigUInt64BE(starts[4]), prepare: data.readBigInt64BE(starts[5]) });

/** How many events a batch holds and the last one's position (undefined when it holds none); allocates nothing per row. */
export function copyBatchInfo(data: Buffer): { count: number; last: GlobalPosition } | undefined {
  let count = 0;
  let last = -1;
  for (let at = firstRow(data); !isEnd(data, at); count++) {
    last = at;
    at = rowFields(data, at);
    for (let f = 0; f < FIELDS; f++) at = nextField(data, at);
  }
  return count === 0 ? undefined : { count, last: position(data, fieldStarts(data, last)) };
}

/** A uuid's 16 bytes as its canonical text, spelled into a scratch buffer (a few times cheaper than joining strings). */
const uuidScratch = Buffer.alloc(36);
function uuidText(data: Buffer, at: number): string {
  let o = 0;
  for (let b = 0; b < 16; b++) {
    if (b === 4 || b === 6 || b === 8 || b === 10) uuidScratch[o++] = 45; // '-'
    const byte = data[at + b];
    uuidScratch[o++] = HEX_DIGITS[byte >> 4];
    uuidScratch[o++] = HEX_DIGITS[byte & 15];
  }
  return uuidScratch.toString('latin1', 0, 36);
}

/**
 * A short text field that mostly repeats from one row to the next (the event type, the stream: a ledger's
 * events come in runs): the last one's bytes are kept and compared, so a repeat costs no decoding.
 */
class RepeatedText {
  private bytes = Buffer.alloc(0);
  private text = '';

  read(data: Buffer, start: number, end: number): string {
    const length = end - start;
    let same = length === this.bytes.length;
    for (let i = 0; same && i < length; i++) same = data[start + i] === this.bytes[i];
    if (!same) {
      this.bytes = Buffer.from(data.subarray(start, end)); // a copy: the batch's buffer goes on to be dropped
      this.text = data.toString('utf8', start, end);
    }
    return this.text;
  }
}

/** Milliseconds since 1970 of a timestamptz (microseconds since 2000), rounded down as the driver does. */
function timestampMs(data: Buffer, at: number): number {
  const high = data.readInt32BE(at);
  const micros = high * 2 ** 32 + data.readUInt32BE(at + 4);
  // Exact as a number within 2^53 microseconds of 2000 (about 285 years); beyond, in bigint.
  if (Math.abs(high) < 2 ** 20) return EPOCH_2000_MS + Math.floor(micros / 1000);
  const big = data.readBigInt64BE(at);
  return EPOCH_2000_MS + Number(big / 1000n - (big < 0n && big % 1000n !== 0n ? 1n : 0n));
}

/**
 * The batch's events in order, as readAll would give them (upcast), `size` at a time: a reader that is done with each slice before the next
 * holds only a slice's events at once.
 */
export function* decodeCopySlices(bytes: Uint8Array, size: number): Generator<RecordedEvent[], void, undefined> {
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError('slices of a whole number of events, at least one');
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const json = (starts: number[], f: number) => {
    const start = data[starts[f]] === JSONB_VERSION ? starts[f] + 1 : starts[f];
    return JSON.parse(data.toString('utf8', start, starts[f + 1] - 4));
  };
  const [types, streams] = [new RepeatedText(), new RepeatedText()];
  let events: RecordedEvent[] = [];
  for (const starts of rows(data)) {
    events.push(upcastEvent({
      id: uuidText(data, starts[0]),
      type: types.read(data, starts[1], starts[2] - 4),
      streamId: streams.read(data, starts[2], starts[3] - 4),
      revision: data.readBigInt64BE(starts[3]),
      position: position(data, starts),
      recordedAt: new Date(timestampMs(data, starts[6])),
      data: json(starts, 7),
      metadata: json(starts, 8),
    }));
    if (events.length === size) {
      yield events;
      events = [];
    }
  }
  if (events.length > 0) yield events;
}
