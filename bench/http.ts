/**
 * HTTP throughput and latency of posting an accounting entry through GraphQL
 * (createAccountingEntryUsingCodes), with autocannon, against the service started in this process over
 * a fresh database. A mutation returns once the projections include its entry (read-your-writes), so
 * its latency includes projecting.
 *
 * Endpoints, each at every connection count (default 1, 8, 32):
 *   health         GET /health: the HTTP stack alone (Fastify, no database)
 *   query          { journalTypes(first: 1) { totalCount } }: the GraphQL read path (token check + list query)
 *   mutation       the entry mutation, connections spread round robin over ORGANISATIONS organisations,
 *                  each with its own exercise (one exercise's ledger is one stream: posts to it serialise)
 *   mutation-1org  the entry mutation, every connection on one organisation (not run at 1 connection:
 *                  that is `mutation` at 1 connection)
 *
 * autocannon runs in a worker thread (its `workers` option), so the load generator does not share the
 * service's event loop; it still shares the machine's cores with the service and PostgreSQL. Every
 * response body is checked for GraphQL `errors` (autocannon's verifyBody: "mismatches"). After each
 * mutation run the accounting_entries rows added are compared with the successful responses (requests
 * still in flight when autocannon stops may add up to `connections` more rows).
 *
 * CPU per run, in % of one core: this process (service + autocannon's worker), its main thread (the
 * service's event loop), PostgreSQL, and everything else on the machine ("other": when it is high,
 * something else competed for the cores and the run understates the service).
 */
import autocannon, { type Options, type Result } from 'autocannon';
import { BroadcastChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { benchTarget, contentionWarning, cpuMeter, resultHeader, sleep, table, withAdmin, type CpuPercent } from './support.ts';
import { ENTRY_MUTATION, entryInput, settle, startBenchService, type BenchOrganisation, type BenchService } from './service.ts';
import { POOL_LIMITS } from '../platform/database.ts';

export type Endpoint = 'health' | 'query' | 'mutation' | 'mutation-1org';
const ENDPOINTS: Endpoint[] = ['health', 'query', 'mutation', 'mutation-1org'];

export interface HttpBenchOptions {
  freshDatabase: () => Promise<string>;
  /** Measured time of each mutation run; default 10,000 ms. */
  durationMs?: number;
  /** Measured time of each health/query run; default 5,000 ms (or durationMs when that is given). */
  baselineDurationMs?: number;
  /** Unmeasured run before each measured one; default 1,000 ms. */
  warmupMs?: number;
  connections?: number[];
  /** Organisations the `mutation` endpoint spreads its connections over; default 4. */
  organisations?: number;
  endpoints?: Endpoint[];
  log?: (line: string) => void;
}

export interface HttpMeasurement {
  endpoint: Endpoint;
  connections: number;
  /** Organisations the connections post to. */
  organisations: number;
  durationMs: number;
  /** Responses received (any status). */
  requests: number;
  requestsPerSec: number;
  '2xx': number;
  non2xx: number;
  /** Responses whose body carried GraphQL errors (any status). */
  graphqlErrors: number;
  socketErrors: number;
  timeouts: number;
  /** autocannon's histogram: whole milliseconds, except the mean. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  cpuPercent: CpuPercent;
  /** mutation runs: rows added to accounting_entries by the run (settled afterwards), and whether they match the responses. */
  rowsAdded?: number;
  verified?: boolean;
  errorSamples?: string[];
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SETUP_CLIENT = here('./http-setup-client.cts');
const VERIFY_BODY = here('./http-verify-body.cts');
const ERROR_CHANNEL = 'bench-http-error-bodies';
const QUERY = '{ journalTypes(first: 1) { totalCount } }';

interface Target {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  organisations: BenchOrganisation[];
}

function target(endpoint: Endpoint, orgs: BenchOrganisation[]): Target {
  switch (endpoint) {
    case 'health':
      return { method: 'GET', path: '/health', organisations: orgs };
    case 'query':
      return { method: 'POST', path: '/graphql', body: JSON.stringify({ query: QUERY }), organisations: orgs };
    case 'mutation':
      return { method: 'POST', path: '/graphql', body: JSON.stringify({ query: ENTRY_MUTATION, variables: { v: entryInput() } }), organisations: orgs };
    case 'mutation-1org':
      return { method: 'POST', path: '/graphql', body: JSON.stringify({ query: ENTRY_MUTATION, variables: { v: entryInput() } }), organisations: orgs.slice(0, 1) };
  }
}

function cannon(options: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function countEntries(bench: BenchService): Promise<number> {
  const { rows } = await bench.pool.query(`SELECT count(*)::int AS n FROM accounting_entries`);
  return rows[0].n as number;
}

/** One request with the first organisation's credentials: the endpoint must answer without errors before it is measured. */
async function sample(base: string, t: Target): Promise<string> {
  const org = t.organisations[0];
  const res = await fetch(`${base}${t.path}`, {
    method: t.method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${org.token}`, 'x-site': org.organisationId },
    body: t.body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${t.method} ${t.path} answered ${res.status}: ${text.slice(0, 500)}`);
  return text.slice(0, 200);
}

async function run(bench: BenchService, endpoint: Endpoint, connections: number, durationMs: number, postmasterPid?: number): Promise<HttpMeasurement> {
  const t = target(endpoint, bench.organisations);
  const organisations = Math.min(connections, t.organisations.length);
  // Read by bench/http-setup-client.cts in autocannon's worker (a worker copies the environment when it starts).
  process.env.BENCH_HTTP_AUTH = JSON.stringify(t.organisations.map((o) => ({ token: o.token, organisationId: o.organisationId })));
  const isMutation = endpoint.startsWith('mutation');
  const rowsBefore = isMutation ? await countEntries(bench) : 0;
  const errorSamples: string[] = [];
  const channel = new BroadcastChannel(ERROR_CHANNEL);
  channel.onmessage = (message) => {
    if (errorSamples.length < 3) errorSamples.push(String((message as { data: unknown }).data));
  };
  let result: Result;
  let cpuPercent: CpuPercent;
  try {
    const meter = cpuMeter(postmasterPid);
    result = await cannon({
      url: `${bench.base}${t.path}`,
      method: t.method,
      body: t.body,
      connections,
      duration: durationMs / 1000,
      timeout: 30,
      workers: 1,
      setupClient: SETUP_CLIENT,
      verifyBody: VERIFY_BODY,
    });
    cpuPercent = meter();
    // Let requests still in flight when autocannon stopped finish and be projected.
    await sleep(isMutation ? 300 : 50);
    if (isMutation) await settle(bench.service);
  } finally {
    channel.close();
  }
  const requests = Object.values(result.statusCodeStats).reduce((a, s) => a + s.count, 0);
  const seconds = result.duration;
  const m: HttpMeasurement = {
    endpoint,
    connections,
    organisations,
    durationMs: Math.round(seconds * 1000),
    requests,
    requestsPerSec: Math.round(requests / seconds),
    '2xx': result['2xx'],
    non2xx: result.non2xx,
    graphqlErrors: result.mismatches,
    socketErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: Math.round(result.latency.mean * 100) / 100,
    },
    cpuPercent,
  };
  if (isMutation) {
    m.rowsAdded = (await countEntries(bench)) - rowsBefore;
    // Successful = 2xx without errors, at least 2xx - mismatches; requests cut off at the end may add rows too.
    m.verified = m.rowsAdded >= m['2xx'] - m.graphqlErrors && m.rowsAdded <= m['2xx'] + connections + m.timeouts;
  }
  if (errorSamples.length > 0) m.errorSamples = errorSamples;
  return m;
}

export async function benchHttp(adminUrl: string, options: HttpBenchOptions): Promise<object> {
  const durationMs = options.durationMs ?? 10_000;
  const baselineDurationMs = options.baselineDurationMs ?? (options.durationMs !== undefined ? durationMs : 5_000);
  const warmupMs = options.warmupMs ?? 1_000;
  const connectionCounts = options.connections ?? [1, 8, 32];
  const organisationCount = options.organisations ?? 4;
  const endpoints = options.endpoints ?? ENDPOINTS;
  if (!connectionCounts.every((c) => Number.isInteger(c) && c > 0)) throw new Error(`--connections takes positive whole numbers, got ${connectionCounts.join(',')}`);
  const unknown = endpoints.filter((e) => !ENDPOINTS.includes(e));
  if (unknown.length > 0) throw new Error(`unknown endpoint(s) ${unknown.join(', ')}; known: ${ENDPOINTS.join(', ')}`);
  const log = options.log ?? ((line: string) => console.error(line));

  const { startedAt, server, postmasterPid, url } = await benchTarget(adminUrl, options.freshDatabase);
  log(`  starting the service over a fresh database with ${organisationCount} organisations ...`);
  const bench = await startBenchService(url, organisationCount, { listen: true });
  const results: HttpMeasurement[] = [];
  const samples: Record<string, string> = {};
  try {
    for (const endpoint of endpoints) {
      samples[endpoint] = await sample(bench.base!, target(endpoint, bench.organisations));
      const ms = endpoint.startsWith('mutation') ? durationMs : baselineDurationMs;
      for (const connections of connectionCounts) {
        if (endpoint === 'mutation-1org' && connections === 1 && endpoints.includes('mutation')) continue;
        // Flush dirty pages of earlier runs now rather than in the middle of this one.
        await withAdmin(adminUrl, (c) => c.query('CHECKPOINT')).catch(() => {});
        if (warmupMs > 0) await run(bench, endpoint, connections, warmupMs, postmasterPid);
        const m = await run(bench, endpoint, connections, ms, postmasterPid);
        results.push(m);
        log(
          `  ${endpoint.padEnd(13)} ${String(connections).padStart(2)} conn: ${m.requestsPerSec} req/s, ` +
            `p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, max ${m.latencyMs.max} ms, non-2xx ${m.non2xx}, ` +
            `GraphQL errors ${m.graphqlErrors}, cpu node ${m.cpuPercent.process}% (main ${m.cpuPercent.mainThread ?? '-'}%) pg ${m.cpuPercent.postgres ?? '-'}% other ${m.cpuPercent.other ?? '-'}%` +
            (m.rowsAdded !== undefined ? `, rows +${m.rowsAdded}${m.verified ? '' : ' (MISMATCH)'}` : '') +
            (m.errorSamples ? `\n    e.g. ${m.errorSamples[0]}` : ''),
        );
      }
    }
  } finally {
    await bench.close();
  }

  const find = (e: Endpoint, c: number) => results.find((r) => r.endpoint === e && r.connections === c);
  const ratio = (a?: HttpMeasurement, b?: HttpMeasurement) =>
    a && b && b.requestsPerSec > 0 ? Math.round((a.requestsPerSec / b.requestsPerSec) * 1000) / 1000 : null;
  const ratios = connectionCounts.map((c) => ({
    connections: c,
    mutationOverQuery: ratio(find('mutation', c), find('query', c)),
    mutationOverHealth: ratio(find('mutation', c), find('health', c)),
    queryOverHealth: ratio(find('query', c), find('health', c)),
    oneOrgOverSpread: ratio(find('mutation-1org', c) ?? (c === 1 ? find('mutation', c) : undefined), find('mutation', c)),
  }));

  return {
    ...resultHeader('http', startedAt, server, ['autocannon', 'fastify', 'mercurius', 'graphql']),
    config: {
      durationMs,
      baselineDurationMs,
      warmupMs,
      connections: connectionCounts,
      organisations: organisationCount,
      endpoints,
      poolMax: POOL_LIMITS.max,
      loadGenerator: 'autocannon, 1 worker thread in the service process',
      mutation: { query: ENTRY_MUTATION, variables: { v: entryInput() } },
      query: QUERY,
      samples,
    },
    results,
    ratios,
  };
}

/** The printed summary of a benchHttp result. */
export function reportHttp(result: object): string {
  const r = result as { results: HttpMeasurement[]; ratios: Array<Record<string, number | null>>; versions: Record<string, string> };
  const lines: string[] = [];
  lines.push(
    table(
      ['endpoint', 'conn', 'orgs', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'mean ms', 'non-2xx', 'gql err', 'sock err', 'cpu node%', 'main%', 'pg%', 'other%', 'rows ok'],
      r.results.map((m) => [
        m.endpoint, m.connections, m.organisations, m.requestsPerSec, m.latencyMs.p50, m.latencyMs.p99, m.latencyMs.max, m.latencyMs.mean,
        m.non2xx, m.graphqlErrors, m.socketErrors + m.timeouts, m.cpuPercent.process, m.cpuPercent.mainThread ?? '-', m.cpuPercent.postgres ?? '-', m.cpuPercent.other ?? '-',
        m.rowsAdded === undefined ? '-' : `${m.verified ? 'yes' : 'NO'} (${m.rowsAdded})`,
      ]),
    ),
  );
  lines.push('');
  lines.push(
    table(
      ['conn', 'mutation/query', 'mutation/health', 'query/health', '1org/spread'],
      r.ratios.map((x) => [x.connections ?? '', x.mutationOverQuery ?? '-', x.mutationOverHealth ?? '-', x.queryOverHealth ?? '-', x.oneOrgOverSpread ?? '-']),
    ),
  );
  const warning = contentionWarning(r.results.map((m) => m.cpuPercent));
  if (warning) lines.push(warning);
  lines.push('');
  lines.push(`versions: ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return lines.join('\n');
}
