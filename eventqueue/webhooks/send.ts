/**
 * One HTTP POST to a vetted target: connects to the checked address only (pinned lookup), never follows
 * redirects, reads at most a few KiB of the answer (for the delivery log) and gives up when `signal`
 * aborts (the per-attempt timeout, or shutdown).
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, type VettedTarget } from './target.ts';

export const SEND_LIMITS = Object.freeze({ responseSnippetBytes: 2048 });

export interface SendResult {
  status: number;
  retryAfter: string | undefined;
  snippet: string;
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export const newAgents = (): Agents => ({
  http: new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 }),
});

export function postOnce(target: VettedTarget, headers: Record<string, string>, body: string, signal: AbortSignal, agents?: Agents): Promise<SendResult> {
  const secure = target.url.protocol === 'https:';
  const payload = Buffer.from(body);
  return new Promise<SendResult>((resolve, reject) => {
    const request = (secure ? https : http).request({
      protocol: target.url.protocol,
      hostname: target.hostname,
      port: target.url.port || (secure ? 443 : 80),
      path: `${target.url.pathname}${target.url.search}`,
      method: 'POST',
      headers: { 'user-agent': 'ledger-webhooks/1', ...headers, 'content-length': String(payload.length) },
      lookup: pinnedLookup(target),
      agent: agents ? (secure ? agents.https : agents.http) : false,
      signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, snippet: Buffer.concat(chunks).toString('utf8').slice(0, SEND_LIMITS.responseSnippetBytes) });
      };
      response.on('data', (chunk: Buffer) => {
        if (size < SEND_LIMITS.responseSnippetBytes) chunks.push(chunk);
        size += chunk.length;
        // An endless answer must not hold the attempt: keep what we have and drop the connection.
        if (size > 64 * 1024) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      // The status is known: a body cut short (timeout, reset) does not change the outcome.
      response.on('error', done);
      response.on('close', done);
    });
    request.end(payload);
  });
}
