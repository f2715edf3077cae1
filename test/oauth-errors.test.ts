/**
 * Every refusal of the authorization server: redirect errors of the authorization endpoint (spec 5.2),
 * error pages where no redirect is safe, token endpoint errors (spec 5.3) with their status codes,
 * code and refresh token reuse with the revocations they cause, country groups, CSRF, the refresh
 * grace window under concurrency, code expiry and rate limits.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import * as oauth from 'oauth4webapi';
import t from 'tap';
import { oauthPlugin } from '../api/oauth/plugin.ts';
import type { OAuthSettings } from '../api/oauth/settings.ts';
import type { Identity } from '../api/auth/identity.ts';
import { approve, authorizationServer, authorizeUrl, Browser, insecure, parseForm, pkceRequest, postForm, rejection } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { base, service } = api;
const REDIRECT = 'https://app.example.com/callback';

/** Each scenario signs in as its own user, so the per-email sign-in limit never interferes. */
async function newUser(organisationId = api.organisationId) {
  const user = { email: `user-${randomUUID()}@example.com`, password: 'correct horse battery staple' };
  await service.identity.createUser(organisationId, user.email, user.password, 'admin');
  return user;
}

async function newClient(isPublic = false, grantTypes?: ('authorization_code' | 'refresh_token')[]) {
  const c = await service.identity.createClient('Test App', REDIRECT, isPublic, grantTypes ? { grantTypes } : {});
  return { id: c.client_id, secret: c.client_secret ?? '' };
}

/** A code for `client` through the real pages (PKCE S256), on `at` (this service unless said). */
async function code(client: { id: string }, at = base, scope = 'full_access') {
  const request = await pkceRequest(at, client.id, REDIRECT, scope);
  const callback = await approve(at, request.url, await newUser());
  const params = oauth.validateAuthResponse(authorizationServer(at), { client_id: client.id }, callback, request.state);
  return { code: callback.searchParams.get('code')!, verifier: request.verifier, callback, params };
}

const token = (region: string, fields: Record<string, string>, basic?: [string, string], at = base) => postForm(`${at}/oauth/${region}/token`, fields, basic);
const exchange = (client: { id: string; secret: string }, c: { code: string; verifier: string }, region = 'eu', at = base) =>
  token(region, { grant_type: 'authorization_code', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }, [client.id, client.secret], at);
const refresh = (client: { id: string; secret: string }, refreshToken: string, region = 'eu', at = base) =>
  token(region, { grant_type: 'refresh_token', refresh_token: refreshToken }, [client.id, client.secret], at);
const restStatus = async (accessToken: string) => (await api.rest('/ledger_accounts', { Authorization: `Bearer ${accessToken}`, 'X-Site': api.organisationId })).status;

/** A second server over the same database with other settings or a faulty identity (nothing else differs). */
async function extraInstance(settings: Partial<OAuthSettings>, identity: Identity = service.identity) {
  const app = Fastify({ logger: false });
  await app.register(oauthPlugin, { pool: service.db.pool, identity, settings });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

t.test('unknown client or redirect URI: an error page, never a redirect', async (t) => {
  const client = await newClient();
  for (const [label, params] of [
    ['unknown client', { client_id: 'no-such-client', redirect_uri: REDIRECT }],
    ['missing client_id', { client_id: '', redirect_uri: REDIRECT }],
    ['unregistered redirect URI', { client_id: client.id, redirect_uri: 'https://evil.example/callback' }],
    ['a registered URI with a different path', { client_id: client.id, redirect_uri: `${REDIRECT}/x` }],
    ['a registered URI with an extra query', { client_id: client.id, redirect_uri: `${REDIRECT}?next=evil` }],
    ['missing redirect URI', { client_id: client.id, redirect_uri: '' }],
  ] as const) {
    const page = await new Browser(base).get(authorizeUrl(base, { ...params, state: 's' }));
    t.equal(page.status, 400, label);
    t.equal(page.location, null, `${label}: no redirect`);
    t.match(page.html, /<h1>/, `${label}: an HTML page`);
  }
  const repeated = authorizeUrl(base, { client_id: client.id, redirect_uri: REDIRECT });
  repeated.searchParams.append('redirect_uri', REDIRECT);
  t.equal((await new Browser(base).get(repeated)).status, 400, 'a repeated redirect_uri is not redirected to either');
});

t.test('authorization request errors redirect to the registered URI with error and state', async (t) => {
  const confidential = await newClient();
  const publicClient = await newClient(true);
  const refreshOnly = await newClient(false, ['refresh_token']);
  const pkce = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGEz-3a2cQ', code_challenge_method: 'S256' };
  const cases: [string, Record<string, string>, string][] = [
    ['response_type token', { client_id: confidential.id, response_type: 'token' }, 'unsupported_response_type'],
    ['response_type missing', { client_id: confidential.id, response_type: '' }, 'invalid_request'],
    ['unknown scope', { client_id: confidential.id, scope: 'admin' }, 'invalid_scope'],
    ['two scopes', { client_id: confidential.id, scope: 'readonly full_access' }, 'invalid_scope'],
    ['scope and scopes disagree', { client_id: confidential.id, scope: 'readonly', scopes: 'full_access' }, 'invalid_request'],
    ['public client without PKCE', { client_id: publicClient.id }, 'invalid_request'],
    ['PKCE method plain', { client_id: publicClient.id, code_challenge: pkce.code_challenge, code_challenge_method: 'plain' }, 'invalid_request'],
    ['PKCE method missing', { client_id: publicClient.id, code_challenge: pkce.code_challenge }, 'invalid_request'],
    ['malformed challenge', { client_id: publicClient.id, code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    ['client not allowed the code grant', { client_id: refreshOnly.id, ...pkce }, 'unauthorized_client'],
  ];
  for (const [label, params, error] of cases) {
    const page = await new Browser(base).get(authorizeUrl(base, { redirect_uri: REDIRECT, state: 'st-1', ...params } as never));
    t.equal(page.status, 302, label);
    const back = new URL(page.location!);
    t.equal(`${back.origin}${back.pathname}`, REDIRECT, `${label}: to the registered URI`);
    t.equal(back.searchParams.get('error'), error, label);
    t.ok(back.searchParams.get('error_description'), `${label}: described`);
    t.equal(back.searchParams.get('state'), 'st-1', `${label}: state returned`);
  }
  const repeated = authorizeUrl(base, { client_id: confidential.id, redirect_uri: REDIRECT, scope: 'readonly' });
  repeated.searchParams.append('scope', 'full_access');
  const page = await new Browser(base).get(repeated);
  t.equal(new URL(page.location!).searchParams.get('error'), 'invalid_request', 'a repeated parameter');
});

t.test('the user declines: access_denied', async (t) => {
  const client = await newClient();
  const request = await pkceRequest(base, client.id, REDIRECT);
  const browser = new Browser(base);
  const consent = await browser.signIn(await browser.get(request.url), await newUser());
  const done = await browser.consent(consent, 'deny');
  t.equal(done.status, 303);
  const back = new URL(done.location!);
  t.equal(back.searchParams.get('error'), 'access_denied');
  t.equal(back.searchParams.get('state'), request.state);
  t.equal(back.searchParams.get('code'), null);
  t.equal((await browser.consent(consent, 'approve')).status, 400, 'an answered request cannot be answered again');
});

t.test('CSRF: forms are honoured only with their token, from the browser that opened them', async (t) => {
  const client = await newClient();
  const user = await newUser();
  const request = await pkceRequest(base, client.id, REDIRECT);
  const browser = new Browser(base);
  const signIn = await browser.get(request.url);
  const form = parseForm(signIn.html);

  const forged = await browser.post(form.action, { ...form.fields, csrf: 'A'.repeat(43), ...user });
  t.equal(forged.status, 403, 'a wrong CSRF token is refused');
  t.match(forged.html, /CSRF/);
  const noField = await browser.post(form.action, { request: form.fields.request, ...user });
  t.equal(noField.status, 403, 'a missing CSRF token is refused');
  const attacker = new Browser(base); // has the form's fields but not the victim's cookie
  t.equal((await attacker.post(form.action, { ...form.fields, ...user })).status, 403, 'another browser is refused');
  const otherCookie = new Browser(base);
  otherCookie.setCookie('oauth_browser', 'B'.repeat(43));
  t.equal((await otherCookie.post(form.action, { ...form.fields, ...user })).status, 403, 'another browser\'s cookie is refused');

  const consent = await browser.signIn(signIn, user);
  t.equal(consent.status, 200, 'the genuine post still works');
  const consentForm = parseForm(consent.html);
  t.equal((await browser.post(consentForm.action, { ...consentForm.fields, csrf: form.fields.csrf, decision: 'approve' })).status, 403, 'the sign-in token does not pass the consent');
  t.equal((await attacker.post(consentForm.action, { ...consentForm.fields, decision: 'approve' })).status, 403, 'nor does another browser');
  const done = await browser.consent(consent, 'approve');
  t.ok(new URL(done.location!).searchParams.get('code'), 'the genuine consent completes');
});

t.test('token endpoint: client authentication (401 invalid_client)', async (t) => {
  const client = await newClient();
  const c = await code(client);
  const fields = { grant_type: 'authorization_code', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier };

  const badBasic = await token('eu', fields, [client.id, 'wrong-secret']);
  t.equal(badBasic.status, 401);
  t.equal(badBasic.body.error, 'invalid_client');
  t.match(badBasic.headers.get('www-authenticate'), /^Basic /, 'HTTP Basic was tried: challenged');
  t.equal(badBasic.headers.get('cache-control'), 'no-store');

  const badBody = await token('eu', { ...fields, client_id: client.id, client_secret: 'wrong-secret' });
  t.equal(badBody.status, 401);
  t.equal(badBody.body.error, 'invalid_client');
  t.equal(badBody.headers.get('www-authenticate'), null, 'body credentials: no Basic challenge');

  const unknown = await token('eu', { ...fields, client_id: 'no-such-client', client_secret: 'x' });
  t.same([unknown.status, unknown.body.error], [401, 'invalid_client'], 'unknown client');
  const none = await token('eu', fields);
  t.same([none.status, none.body.error], [401, 'invalid_client'], 'no client credentials');
  const noSecret = await token('eu', { ...fields, client_id: client.id });
  t.same([noSecret.status, noSecret.body.error], [401, 'invalid_client'], 'a confidential client without its secret');
  const both = await token('eu', { ...fields, client_secret: client.secret }, [client.id, client.secret]);
  t.same([both.status, both.body.error], [400, 'invalid_request'], 'two authentication methods at once');

  // oauth4webapi surfaces the same error to a standard client.
  const as = authorizationServer(base);
  t.match(
    await rejection(oauth.processAuthorizationCodeResponse(as, { client_id: client.id },
      await oauth.authorizationCodeGrantRequest(as, { client_id: client.id }, oauth.ClientSecretPost('wrong'), c.params, REDIRECT, c.verifier, insecure))),
    { status: 401, error: 'invalid_client' },
  );
  t.equal((await exchange(client, c)).status, 200, 'failed client authentication does not spend the code');
});

t.test('token endpoint: request errors (400)', async (t) => {
  const client = await newClient();
  const auth: [string, string] = [client.id, client.secret];
  const cases: [string, Record<string, string>, string][] = [
    ['unknown grant type', { grant_type: 'password', username: 'a', password: 'b' }, 'unsupported_grant_type'],
    ['client_credentials', { grant_type: 'client_credentials' }, 'unsupported_grant_type'],
    ['missing grant type', {}, 'invalid_request'],
    ['code grant without code', { grant_type: 'authorization_code', redirect_uri: REDIRECT }, 'invalid_request'],
    ['code grant without redirect_uri', { grant_type: 'authorization_code', code: 'x' }, 'invalid_request'],
    ['malformed verifier', { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, code_verifier: 'too-short' }, 'invalid_request'],
    ['unknown code', { grant_type: 'authorization_code', code: 'x'.repeat(40), redirect_uri: REDIRECT }, 'invalid_grant'],
    ['refresh without token', { grant_type: 'refresh_token' }, 'invalid_request'],
    ['unknown refresh token', { grant_type: 'refresh_token', refresh_token: 'y'.repeat(40) }, 'invalid_grant'],
    ['refresh with an unknown scope', { grant_type: 'refresh_token', refresh_token: 'y'.repeat(40), scope: 'admin' }, 'invalid_scope'],
  ];
  for (const [label, fields, error] of cases) {
    const r = await token('eu', fields, auth);
    t.same([r.status, r.body.error], [400, error], label);
    t.ok(r.body.error_description, `${label}: described`);
    t.equal(r.headers.get('cache-control'), 'no-store');
  }
  const json = await fetch(`${base}/oauth/eu/token`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'y' }),
  });
  t.same([json.status, (await json.json()).error], [400, 'invalid_request'], 'a JSON body is not a token request');
  const text = await fetch(`${base}/oauth/eu/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=refresh_token' });
  t.same([text.status, (await text.json()).error], [400, 'invalid_request'], 'neither is text/plain');
  const repeated = await fetch(`${base}/oauth/eu/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${client.id}`,
  });
  t.same([repeated.status, (await repeated.json()).error], [400, 'invalid_request'], 'a repeated parameter');

  const codeOnly = await newClient(false, ['authorization_code']);
  const issued = await exchange(codeOnly, await code(codeOnly));
  t.equal(issued.status, 200);
  t.equal(issued.body.refresh_token, undefined, 'a client without the refresh grant gets no refresh token');
  const refused = await token('eu', { grant_type: 'refresh_token', refresh_token: 'z'.repeat(40) }, [codeOnly.id, codeOnly.secret]);
  t.same([refused.status, refused.body.error], [400, 'unauthorized_client'], 'nor may it refresh');
});

t.test('a reused code is refused and revokes the tokens issued from it', async (t) => {
  const client = await newClient();
  const c = await code(client);
  const first = await exchange(client, c);
  t.equal(first.status, 200);
  t.equal(await restStatus(first.body.access_token), 200);
  const second = await exchange(client, c);
  t.same([second.status, second.body.error], [400, 'invalid_grant']);
  t.match(second.body.error_description, /already used/);
  t.equal(await restStatus(first.body.access_token), 401, 'the access token issued from the code is revoked');
  t.equal((await refresh(client, first.body.refresh_token)).body.error, 'invalid_grant', 'and so is the refresh token');
});

t.test('a code is bound to its client, redirect URI and PKCE verifier; any failure spends it', async (t) => {
  const client = await newClient();
  const other = await newClient();
  const c1 = await code(client);
  const otherClient = await exchange(other, c1);
  t.same([otherClient.status, otherClient.body.error], [400, 'invalid_grant'], 'another client');

  const c2 = await code(client);
  const wrongUri = await token('eu', { grant_type: 'authorization_code', code: c2.code, redirect_uri: `${REDIRECT}/other`, code_verifier: c2.verifier }, [client.id, client.secret]);
  t.same([wrongUri.status, wrongUri.body.error], [400, 'invalid_grant'], 'another redirect_uri');

  const c3 = await code(client);
  const badVerifier = await exchange(client, { code: c3.code, verifier: oauth.generateRandomCodeVerifier() });
  t.same([badVerifier.status, badVerifier.body.error], [400, 'invalid_grant'], 'a wrong PKCE verifier');
  t.match(badVerifier.body.error_description, /code_verifier/);
  const noVerifier = await token('eu', { grant_type: 'authorization_code', code: c3.code, redirect_uri: REDIRECT }, [client.id, client.secret]);
  t.equal(noVerifier.body.error, 'invalid_grant');
  t.equal((await exchange(client, c3)).body.error, 'invalid_grant', 'the right verifier after a wrong one: the code is spent');

  // oauth4webapi with a wrong verifier reports the same.
  const c4 = await code(client);
  const as = authorizationServer(base);
  t.match(
    await rejection(oauth.processAuthorizationCodeResponse(as, { client_id: client.id },
      await oauth.authorizationCodeGrantRequest(as, { client_id: client.id }, oauth.ClientSecretBasic(client.secret), c4.params, REDIRECT, oauth.generateRandomCodeVerifier(), insecure))),
    { status: 400, error: 'invalid_grant' },
  );
});

t.test('codes and refresh tokens are redeemed only in their country group', async (t) => {
  const client = await newClient();
  const c = await code(client);
  t.equal(c.callback.searchParams.get('country'), 'ES');
  for (const region of ['na', 'uk']) {
    const r = await exchange(client, c, region);
    t.same([r.status, r.body.error], [400, 'invalid_grant'], `the ES code at ${region}`);
    t.match(r.body.error_description, /\/oauth\/eu\/token/, 'the description names the right endpoint');
  }
  const tokens = (await exchange(client, c, 'eu')).body;
  t.ok(tokens.access_token, 'a wrong-region attempt does not spend the code');
  const atUk = await refresh(client, tokens.refresh_token, 'uk');
  t.same([atUk.status, atUk.body.error], [400, 'invalid_grant'], 'the refresh token at uk');
  const atNa = await postForm(`${base}/oauth/na/revoke`, { token: tokens.refresh_token }, [client.id, client.secret]);
  t.same([atNa.status, atNa.body.error], [400, 'invalid_request'], 'revocation at na');
  t.equal((await refresh(client, tokens.refresh_token, 'eu')).status, 200, 'a wrong-region attempt does not spend the refresh token');
  t.equal((await postForm(`${base}/oauth/xx/token`, {})).status, 404, 'no such country group');
});

t.test('concurrent duplicate refreshes within the grace window get the same pair', async (t) => {
  const client = await newClient();
  const tokens = (await exchange(client, await code(client))).body;
  const [a, b] = await Promise.all([refresh(client, tokens.refresh_token), refresh(client, tokens.refresh_token)]);
  t.same([a.status, b.status], [200, 200], 'both succeed');
  t.equal(a.body.access_token, b.body.access_token, 'the same access token');
  t.equal(a.body.refresh_token, b.body.refresh_token, 'the same refresh token');
  t.not(a.body.refresh_token, tokens.refresh_token);
  const c = await refresh(client, tokens.refresh_token);
  t.equal(c.body.refresh_token, a.body.refresh_token, 'a late duplicate within the window too');
  t.ok(c.body.expires_in <= 3600 && c.body.expires_in > 3500);
  t.equal(await restStatus(a.body.access_token), 200);

  const many = await Promise.all(Array.from({ length: 5 }, () => refresh(client, a.body.refresh_token)));
  t.same(new Set(many.map((r) => r.status)), new Set([200]), 'five at once all succeed');
  t.equal(new Set(many.map((r) => r.body.refresh_token)).size, 1, 'with one pair');

  // Once the successor itself was used, the old token is reuse even within the window.
  const next = await refresh(client, many[0].body.refresh_token);
  t.equal(next.status, 200);
  const reuse = await refresh(client, a.body.refresh_token);
  t.same([reuse.status, reuse.body.error], [400, 'invalid_grant'], 'the retired token after its successor was used');
  t.equal(await restStatus(next.body.access_token), 401, 'the whole grant is revoked');
  t.equal((await refresh(client, next.body.refresh_token)).body.error, 'invalid_grant');
});

t.test('a refresh token reused after the grace window revokes the grant; codes expire', async (t) => {
  const short = await extraInstance({ codeTtlSeconds: 1, refreshGraceSeconds: 1 });
  const client = await newClient();

  const stale = await code(client, short);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const expired = await exchange(client, stale, 'eu', short);
  t.same([expired.status, expired.body.error], [400, 'invalid_grant'], 'an expired code');
  t.match(expired.body.error_description, /expired/);

  const tokens = (await exchange(client, await code(client, short), 'eu', short)).body;
  const renewed = await refresh(client, tokens.refresh_token, 'eu', short);
  t.equal(renewed.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const reuse = await refresh(client, tokens.refresh_token, 'eu', short);
  t.same([reuse.status, reuse.body.error], [400, 'invalid_grant'], 'the retired refresh token, past the window');
  t.match(reuse.body.error_description, /already used/);
  t.equal(await restStatus(renewed.body.access_token), 401, 'the grant\'s access tokens are revoked');
  t.equal(await restStatus(tokens.access_token), 401);
  t.equal((await refresh(client, renewed.body.refresh_token, 'eu', short)).body.error, 'invalid_grant', 'and its live refresh token');
});

t.test('revocation: client binding and unknown tokens', async (t) => {
  const client = await newClient();
  const other = await newClient();
  const tokens = (await exchange(client, await code(client))).body;
  const foreign = await postForm(`${base}/oauth/eu/revoke`, { token: tokens.access_token }, [other.id, other.secret]);
  t.same([foreign.status, foreign.body.error], [400, 'invalid_request'], 'another client cannot revoke it');
  t.equal(await restStatus(tokens.access_token), 200);
  const badSecret = await postForm(`${base}/oauth/eu/revoke`, { token: tokens.access_token }, [client.id, 'wrong']);
  t.same([badSecret.status, badSecret.body.error], [401, 'invalid_client']);
  const missing = await postForm(`${base}/oauth/eu/revoke`, {}, [client.id, client.secret]);
  t.same([missing.status, missing.body.error], [400, 'invalid_request']);
  const unknown = await postForm(`${base}/oauth/eu/revoke`, { token: 'nope' }, [client.id, client.secret]);
  t.equal(unknown.status, 204);
  const ok = await postForm(`${base}/oauth/eu/revoke`, { token: tokens.refresh_token, client_id: client.id, client_secret: client.secret });
  t.equal(ok.status, 204);
  t.equal(await restStatus(tokens.access_token), 401, 'revoking the refresh token revokes the access tokens');
});

t.test('server_error and temporarily_unavailable are redirected', async (t) => {
  const client = await newClient();
  const unprojected = await newUser(randomUUID()); // a member of an organisation the read model does not know yet
  const request = await pkceRequest(base, client.id, REDIRECT);
  const browser = new Browser(base);
  const done = await browser.consent(await browser.signIn(await browser.get(request.url), unprojected), 'approve');
  const back = new URL(done.location!);
  t.equal(back.searchParams.get('error'), 'temporarily_unavailable');
  t.equal(back.searchParams.get('state'), request.state);

  const failing = (error: Error) => {
    const identity = Object.create(service.identity) as Identity;
    identity.memberships = async () => { throw error; };
    return identity;
  };
  const broken = await extraInstance({}, failing(new Error('boom')));
  const unreachable = await extraInstance({}, failing(Object.assign(new Error('connection failure'), { code: '08006' })));
  for (const [at, error] of [[broken, 'server_error'], [unreachable, 'temporarily_unavailable']]) {
    const r = await pkceRequest(at, client.id, REDIRECT);
    const b = new Browser(at);
    const failed = await b.signIn(await b.get(r.url), await newUser());
    t.equal(failed.status, 303);
    const url = new URL(failed.location!);
    t.equal(url.searchParams.get('error'), error);
    t.equal(url.searchParams.get('state'), r.state);
  }
});

t.test('rate limits: repeated bad sign-ins get 429', async (t) => {
  const victim = await newUser();
  const client = await newClient();
  const browser = new Browser(base);
  let page = await browser.get((await pkceRequest(base, client.id, REDIRECT)).url);
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) {
    page = await browser.signIn(page, { email: victim.email, password: `guess-${i}` });
    statuses.push(page.status);
  }
  t.same(statuses, Array(10).fill(200), 'ten wrong passwords are answered');
  const blocked = await browser.post('/oauth/authorize/sign-in', { ...parseForm(page.html).fields, ...victim });
  t.equal(blocked.status, 429, 'the eleventh within the minute is refused, even with the right password');
  t.match(blocked.html, /Too many sign-in attempts/);
  t.ok(Number(blocked.headers.get('retry-after')) > 0, 'with Retry-After');
  const someoneElse = await browser.signIn(page, await newUser());
  t.equal(someoneElse.status, 200, 'another account from the same address is not blocked');

  let last = { status: 0, body: {} as any, headers: new Headers() };
  for (let i = 0; i < 61; i++) last = await token('eu', { grant_type: 'password' }, [client.id, client.secret]);
  t.equal(last.status, 429, 'the 61st token request of a client within the minute');
  t.equal(last.body.error, 'too_many_requests');
  t.match(last.body.error_description, /60 token requests a minute/);
  t.equal(last.headers.get('cache-control'), 'no-store');
});
