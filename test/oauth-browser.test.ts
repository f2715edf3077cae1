/**
 * A real browser (Debian's headless Chromium, driven by playwright-core) signs in and consents on the
 * server-rendered pages and lands on the application's callback; the code then buys a token that
 * works. Skipped when /usr/bin/chromium is absent (CI installs it: apt-get install -y chromium).
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import * as oauth from 'oauth4webapi';
import t from 'tap';
import { authorizationServer, DEMO_USER, insecure, pkceRequest } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** The application's side: a callback endpoint that records what the browser brought back. */
async function callbackServer(t: { teardown(fn: () => unknown): void }) {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    received.push(new URL(req.url!, 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Callback</title><p>Back in the application.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const uri = `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`;
  return { uri, received };
}

if (!existsSync(CHROMIUM)) {
  t.skip(`Debian chromium is not installed (${CHROMIUM}); install it with: apt-get install -y chromium`, () => {});
} else {
  const { chromium } = await import('playwright-core');
  const api = await runningService(t);
  const callback = await callbackServer(t);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());

  t.test('sign in and consent in Chromium, then exchange the code', async (t) => {
    const registered = await api.service.identity.createClient('Browser App', callback.uri, false);
    const client: oauth.Client = { client_id: registered.client_id };
    const as = authorizationServer(api.base);
    const request = await pkceRequest(api.base, client.client_id, callback.uri, 'full_access');
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();

    await page.goto(request.url.toString());
    t.equal(await page.title(), 'Sign in');
    t.match(await page.textContent('body'), /Browser App/);
    await page.fill('#email', DEMO_USER.email);
    await page.fill('#password', 'wrong password');
    await page.click('button[type=submit]');
    t.match(await page.textContent('[role=alert]'), /Wrong email or password/);

    await page.fill('#password', DEMO_USER.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=approve]');
    t.equal(await page.title(), 'Authorize Browser App');
    t.match(await page.textContent('body'), /Demo Ibérica S\.L\./);

    await Promise.all([page.waitForURL((url) => url.toString().startsWith(callback.uri)), page.click('button[value=approve]')]);
    t.match(await page.textContent('body'), /Back in the application/);
    const landed = new URL(page.url());
    t.equal(landed.searchParams.get('country'), 'ES');
    t.equal(landed.searchParams.get('state'), request.state);
    t.equal(callback.received.filter((u) => u.pathname === '/callback').length, 1, 'the callback was reached once'); // (and /favicon.ico)

    const params = oauth.validateAuthResponse(as, client, landed, request.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(registered.client_secret!), params, callback.uri, request.verifier, insecure),
    );
    const listed = await api.rest('/ledger_accounts', { Authorization: `Bearer ${tokens.access_token}`, 'X-Site': String(tokens.resource_owner_id) });
    t.equal(listed.status, 200);
  });

  t.test('deny in Chromium: access_denied at the callback', async (t) => {
    const registered = await api.service.identity.createClient('Declined App', callback.uri, true);
    const request = await pkceRequest(api.base, registered.client_id, callback.uri, 'readonly');
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto(request.url.toString());
    await page.fill('#email', DEMO_USER.email);
    await page.fill('#password', DEMO_USER.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=deny]');
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(callback.uri)), page.click('button[value=deny]')]);
    const landed = new URL(page.url());
    t.equal(landed.searchParams.get('error'), 'access_denied');
    t.equal(landed.searchParams.get('state'), request.state);
    t.equal(landed.searchParams.get('code'), null);
  });
}
