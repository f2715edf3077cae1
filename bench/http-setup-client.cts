/**
 * autocannon `setupClient` for its worker thread (CommonJS: the worker require()s it): gives each
 * connection the Authorization and X-Site headers of one organisation, round robin. The organisations
 * come from BENCH_HTTP_AUTH (JSON [{ token, organisationId }]), set by bench/http.ts before each run;
 * a worker gets a copy of the environment when it starts.
 */
interface Auth {
  token: string;
  organisationId: string;
}

const auth: Auth[] = JSON.parse(process.env.BENCH_HTTP_AUTH ?? '[]');
let next = 0;

function setupClient(client: { setHeaders(headers: Record<string, string>): void }): void {
  const a = auth.length > 0 ? auth[next++ % auth.length] : undefined;
  client.setHeaders({
    'content-type': 'application/json',
    ...(a ? { authorization: `Bearer ${a.token}`, 'x-site': a.organisationId } : {}),
  });
}

export = setupClient;
