/** A webhook receiver on 127.0.0.1 recording every request, and a poll until a probe holds (webhook tests). */
import http from 'node:http';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  status: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/** A webhook receiver on 127.0.0.1: `answer` decides each response (a promise holds it open until it settles); every request is recorded. */
export async function receiver(t: { teardown(fn: () => unknown): void }, answer: (r: Received, n: number) => Answer | Promise<Answer> = () => ({ status: 204 })) {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString(), at: Date.now(), status: 0 };
      const answered = answer(r, requests.length);
      requests.push(r);
      void Promise.resolve(answered).then((a) => {
        if (a === 'hang') return; // never answers
        r.status = a.status;
        res.writeHead(a.status, a.headers);
        res.end(a.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hooks/ledger?source=test`, port, requests, delivered: () => requests.filter((r) => r.status >= 200 && r.status < 300) };
}

export async function until<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
