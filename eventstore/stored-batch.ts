/** Decoding a StoredBatch (port.ts) by its format: what a thread that did not read it needs. */
import type { RecordedEvent, StoredBatch } from './port.ts';
import { decodeCopyBatch } from './postgres/copy-batch.ts';

export function recordedFromBatch(batch: StoredBatch): RecordedEvent[] {
  switch (batch.format) {
    case 'postgres-copy-binary':
      return decodeCopyBatch(batch.data);
  }
}
