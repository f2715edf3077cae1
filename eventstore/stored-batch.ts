/** Decoding a StoredBatch (port.ts) by its format: what a thread that did not read it needs. */
import type { RecordedEvent, StoredBatch } from './port.ts';
import { decodeCopySlices } from './postgres/copy-batch.ts';

/** The batch's events in order, `size` at a time (the last slice may hold fewer). */
export function recordedSlicesFromBatch(batch: StoredBatch, size: number): Iterable<RecordedEvent[]> {
  switch (batch.format) {
    case 'postgres-copy-binary':
      return decodeCopySlices(batch.data, size);
  }
}
