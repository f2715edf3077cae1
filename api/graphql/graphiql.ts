/**
 * GraphiQL at /graphiql, served whole from this service: React's and GraphiQL's browser bundles from their npm
 * packages (graphiql 3 is the last line that ships one), so the page works offline and loads nothing from
 * elsewhere. Its CSP allows 'self' only (fonts and images also as data: URIs, which GraphiQL's stylesheet embeds),
 * and it may not be framed. The headers editor opens prefilled: `Authorization: Bearer <access token>` and
 * `X-Site: <organisation id>` to replace, or the demo's token and organisation while this process's demo is
 * live, shown to a browser on this machine only (the token is full_access: never to another host).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), file);
const ownFile = (file: string) => new URL(`./graphiql/${file}`, import.meta.url);

const JS = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
/** Everything the page loads, by the name it is served under (/graphiql/<name>). */
const ASSETS: Record<string, { file: string | URL; type: string }> = {
  'react.js': { file: packageFile('react', 'umd/react.production.min.js'), type: JS },
  'react-dom.js': { file: packageFile('react-dom', 'umd/react-dom.production.min.js'), type: JS },
  'graphiql.js': { file: packageFile('graphiql', 'graphiql.min.js'), type: JS },
  'graphiql.css': { file: packageFile('graphiql', 'graphiql.min.css'), type: CSS },
  'app.js': { file: ownFile('app.js'), type: JS },
  'page.css': { file: ownFile('page.css'), type: CSS },
};

export const GRAPHIQL_SECURITY_HEADERS = Object.freeze({
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "font-src 'self' data:",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
});

const PLACEHOLDERS = { Authorization: 'Bearer <access token>', 'X-Site': '<organisation id>' };
const DEFAULT_QUERY = `# Set the access token and the organisation (X-Site) in Headers below, then run.
{
  accountingEntries(first: 5, order: [{ date: DESC }]) {
    totalCount
    nodes { number date description accountingEntryLines { debitAmount creditAmount subAccount { code name } } }
    pageInfo { hasNextPage endCursor }
  }
}
`;

const isLoopback = (address: string | undefined) => !!address && /^(127\.|::1$|::ffff:127\.)/.test(address);
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'] as const;
const isLocalHost = (host: string | undefined) => !!host && /^(localhost|127\.[0-9.]+|\[::1\])(:\d+)?$/i.test(host);

/** What the GraphiQL page shows in its headers editor. */
export class GraphiqlPage {
  private demo: { token: string; organisationId: string; until: number } | undefined;

  /** Prefills the demo's headers (seeded by this process) until the token expires. */
  showDemo(token: string, organisationId: string, expiresInSeconds: number): void {
    this.demo = { token, organisationId, until: Date.now() + expiresInSeconds * 1000 };
  }

  headersFor(request: FastifyRequest): Record<string, string> {
    const demo = this.demo && Date.now() < this.demo.until ? this.demo : undefined;
    // A proxy on this machine also connects from loopback: a request it forwarded (any forwarding header) is not local.
    const forwarded = FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined);
    const local = !forwarded && isLoopback(request.socket.remoteAddress) && isLocalHost(request.headers.host);
    return demo && local ? { Authorization: `Bearer ${demo.token}`, 'X-Site': demo.organisationId } : PLACEHOLDERS;
  }
}

/** JSON in a <script type="application/json"> block: nothing in it may close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function pageHtml(settings: object): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>GraphiQL · ledger</title>
  <meta name="robots" content="noindex">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/graphiql/graphiql.css">
  <link rel="stylesheet" href="/graphiql/page.css">
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script type="application/json" id="graphiql-settings">${scriptJson(settings)}</script>
  <script src="/graphiql/react.js"></script>
  <script src="/graphiql/react-dom.js"></script>
  <script src="/graphiql/graphiql.js"></script>
  <script src="/graphiql/app.js"></script>
</body>
</html>
`;
}

const secured = (reply: FastifyReply) => reply.headers(GRAPHIQL_SECURITY_HEADERS);

export function graphiqlRoutes(app: FastifyInstance, page: GraphiqlPage, endpoint = '/graphql'): void {
  const assets = new Map(Object.entries(ASSETS).map(([name, asset]) => [name, { body: fs.readFileSync(asset.file), type: asset.type }]));
  app.get('/graphiql', async (request, reply) => {
    const settings = { endpoint, query: DEFAULT_QUERY, headers: JSON.stringify(page.headersFor(request), null, 2) };
    // no-store: the page may hold the demo's token.
    return secured(reply).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(pageHtml(settings));
  });
  app.get('/graphiql/:asset', async (request, reply) => {
    const asset = assets.get((request.params as { asset: string }).asset);
    if (!asset) return secured(reply).code(404).type('text/plain; charset=utf-8').send('Not found');
    return secured(reply).header('cache-control', 'public, max-age=3600').type(asset.type).send(asset.body);
  });
}
