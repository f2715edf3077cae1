/**
 * One rebuild worker thread (started by rebuild-workers.ts): turns batches of stored events into
 * prepared writes into the shadow tables, one at a time, in the order they come.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { recordedFromBatch } from '../eventstore/stored-batch.ts';
import { projectionNamed } from './all.ts';
import { applyEvents } from './projection.ts';
import { shadowTable } from './rebuild.ts';
import { preparedMessage, type PrepareReply, type PrepareRequest } from './rebuild-workers.ts';
import { Writes } from './writes.ts';

const port = parentPort!;
const projection = projectionNamed((workerData as { projection: string }).projection);

port.on('message', ({ id, events }: PrepareRequest) => {
  let message: { reply: PrepareReply; transfer: ArrayBuffer[] };
  try {
    const writes = new Writes();
    applyEvents(projection, recordedFromBatch(events), writes, shadowTable);
    // Every insert as COPY, as the rebuild writes them (copyFromRows 1 in rebuild.ts).
    message = preparedMessage(id, writes.prepare(1));
  } catch (error) {
    message = { reply: { id, error: (error as Error).stack ?? String(error) }, transfer: [] };
  }
  port.postMessage(message.reply, message.transfer);
});
port.postMessage('ready');
