/**
 * autocannon `verifyBody` for its worker thread (CommonJS: the worker require()s it): a response whose
 * body carries GraphQL `errors` counts as a mismatch. The first few such bodies are posted on a
 * BroadcastChannel so that bench/http.ts can show what went wrong.
 */
import { BroadcastChannel } from 'node:worker_threads';

const CHANNEL = 'bench-http-error-bodies';
const MAX_SAMPLES = 3;

let channel: BroadcastChannel | undefined;
let sent = 0;

function verifyBody(body: string): boolean {
  if (!body.includes('"errors"')) return true;
  if (sent < MAX_SAMPLES) {
    sent++;
    if (!channel) {
      channel = new BroadcastChannel(CHANNEL);
      channel.unref(); // must not keep the worker alive after its run
    }
    channel.postMessage(body.slice(0, 600));
  }
  return false;
}

export = verifyBody;
