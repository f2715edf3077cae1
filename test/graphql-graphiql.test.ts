/**
 * GraphiQL is served whole by the service: the page and every asset it references come from /graphiql (no
 * external URL), all with a CSP of 'self' and no framing; its headers editor is prefilled with placeholders, or
 * with the demo's token and organisation for a browser on this machine. In Debian's Chromium (skipped when absent),
 * with every request beyond the service refused, the page renders, shows the headers and runs a query.
 */
import { existsSync } from 'node:fs';
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const CHROMIUM = '/usr/bin/chromium';

async function get(path: string) {
  const res = await fetch(`${api.base}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function securityHeaders(t: { equal: Function; match: Function; notMatch: Function }, name: string, headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  t.match(csp, /default-src 'none'/, `${name}: CSP default-src 'none'`);
  t.match(csp, /script-src 'self'(;|$)/, `${name}: scripts from 'self' only`);
  t.match(csp, /frame-ancestors 'none'/, `${name}: not framed`);
  t.notMatch(csp, /https?:|\*|unsafe/, `${name}: no other origin, no unsafe-*`);
  t.equal(headers.get('x-frame-options'), 'DENY', `${name}: X-Frame-Options`);
  t.equal(headers.get('x-content-type-options'), 'nosniff', `${name}: nosniff`);
}

const settingsOf = (html: string) => JSON.parse(/<script type="application\/json" id="graphiql-settings">([^<]*)<\/script>/.exec(html)![1]);

t.test('the page and every asset it references are served locally, with the security headers', async (t) => {
  const page = await get('/graphiql');
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  securityHeaders(t, 'page', page.headers);
  t.notMatch(page.text, /https?:\/\//, 'no external URL in the page');
  const references = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  t.same(references.filter((r) => !r.startsWith('/graphiql/')), [], 'every reference is under /graphiql/');
  t.ok(references.length >= 5, 'scripts and stylesheets referenced');
  for (const ref of references) {
    const asset = await get(ref);
    t.equal(asset.status, 200, `${ref}: served`);
    t.match(asset.headers.get('content-type'), ref.endsWith('.css') ? /^text\/css/ : /^application\/javascript/, `${ref}: its media type`);
    securityHeaders(t, ref, asset.headers);
  }
  t.equal((await get('/graphiql/nope.js')).status, 404, 'nothing else under /graphiql/');
});

t.test('the headers editor is prefilled: placeholders, or the demo for a browser on this machine', async (t) => {
  const placeholders = JSON.parse(settingsOf((await get('/graphiql')).text).headers);
  t.same(placeholders, { Authorization: 'Bearer <access token>', 'X-Site': '<organisation id>' });

  api.service.graphiql.showDemo(api.token, api.organisationId, 3600);
  const demo = JSON.parse(settingsOf((await get('/graphiql')).text).headers);
  t.same(demo, { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId }, 'the demo token and organisation');
  // (fetch may not set Host: inject, whose peer address is 127.0.0.1 too)
  const proxied = await api.service.app.inject({ url: '/graphiql', headers: { host: 'ledger.example.com' } });
  const elsewhere = JSON.parse(settingsOf(proxied.body).headers);
  t.same(elsewhere, placeholders, 'never for a page asked for under another host name');
  for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via']) {
    const viaProxy = await api.service.app.inject({ url: '/graphiql', headers: { host: '127.0.0.1:3000', [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' } });
    t.same(JSON.parse(settingsOf(viaProxy.body).headers), placeholders, `never for a request a proxy on this machine forwarded (${header})`);
  }
  t.equal((await get('/graphiql')).headers.get('cache-control'), 'no-store', 'the page is not cached');

  api.service.graphiql.showDemo(api.token, api.organisationId, 0);
  t.same(JSON.parse(settingsOf((await get('/graphiql')).text).headers), placeholders, 'an expired demo token is not shown');
});

if (!existsSync(CHROMIUM)) {
  t.skip(`Debian chromium is not installed (${CHROMIUM}); install it with: apt-get install -y chromium`, () => {});
} else {
  t.test('in Chromium with the network beyond the service blocked, GraphiQL renders and runs a query', async (t) => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    t.teardown(() => browser.close());
    api.service.graphiql.showDemo(api.token, api.organisationId, 3600);
    const context = await browser.newContext();
    const blocked: string[] = [];
    await context.route('**/*', (route) => (route.request().url().startsWith(`${api.base}/`) ? route.continue() : (blocked.push(route.request().url()), route.abort())));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${api.base}/graphiql`);
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    t.match(await page.textContent('.graphiql-editor-tool'), new RegExp(api.organisationId), 'the headers editor holds the demo organisation');
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => /totalCount/.test(document.querySelector('.result-window')?.textContent ?? ''), undefined, { timeout: 30_000 });
    t.match(await page.textContent('.result-window'), /"totalCount": \d+/, 'the query ran with the prefilled headers');
    t.same(blocked, [], 'nothing was requested beyond the service');
    t.same(problems, [], 'no console errors (CSP violations included)');
  });
}
