/**
 * The whole authorization code flow against the running service: the real HTML pages driven with
 * plain fetch, and oauth4webapi (a standard OAuth client, not our code) for PKCE, the token exchange,
 * refresh and revocation; then REST with the token.
 */
import * as oauth from 'oauth4webapi';
import t from 'tap';
import { approve, authorizationServer, Browser, DEMO_USER, insecure, parseForm, pkceRequest, rejection } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { base, service } = api;
const REDIRECT = 'https://app.example.com/oauth/callback';

const restWith = (token: string, site = api.organisationId) => api.rest('/ledger_accounts', { Authorization: `Bearer ${token}`, 'X-Site': site });

t.test('confidential client: pages -> code -> tokens -> REST -> refresh -> revoke', async (t) => {
  const registered = await service.identity.createClient('Books Sync', REDIRECT, false);
  const client: oauth.Client = { client_id: registered.client_id };
  const clientAuth = oauth.ClientSecretBasic(registered.client_secret!);
  const as = authorizationServer(base, 'eu');
  const request = await pkceRequest(base, client.client_id, REDIRECT, 'full_access');

  // The browser part, page by page.
  const browser = new Browser(base);
  const signIn = await browser.get(request.url);
  t.equal(signIn.status, 200);
  t.match(signIn.headers.get('content-type'), /text\/html/);
  t.match(signIn.html, /Books Sync/, 'the sign-in page names the application');
  t.match(signIn.html, /read and change/, 'and the scope');
  t.equal(signIn.headers.get('x-frame-options'), 'DENY');
  t.match(signIn.headers.get('set-cookie'), /oauth_browser=.*HttpOnly/i, 'the browser binding cookie is HttpOnly');
  const signInForm = parseForm(signIn.html);
  t.equal(signInForm.action, '/oauth/authorize/sign-in');
  t.ok(signInForm.fields.csrf && signInForm.fields.request, 'the form carries the request id and its CSRF token');

  const wrong = await browser.signIn(signIn, { email: DEMO_USER.email, password: 'not-the-password' });
  t.equal(wrong.status, 200);
  t.match(wrong.html, /Wrong email or password/);

  const consent = await browser.signIn(wrong);
  t.equal(consent.status, 200);
  t.match(consent.html, /Authorize Books Sync/);
  t.match(consent.html, /Demo Ibérica S\.L\. \(ES\)/, 'the consent names the organisation');
  const consentForm = parseForm(consent.html);
  t.not(consentForm.fields.csrf, signInForm.fields.csrf, 'a new CSRF token after sign-in');
  t.same(consentForm.decisions, ['approve', 'deny']);
  t.same(consentForm.organisations, [], 'one organisation: nothing to choose');

  const done = await browser.consent(consent, 'approve');
  t.equal(done.status, 303);
  const callback = new URL(done.location!);
  t.equal(`${callback.origin}${callback.pathname}`, REDIRECT, 'back to the exact registered redirect URI');
  t.equal(callback.searchParams.get('country'), 'ES');
  t.equal(callback.searchParams.get('state'), request.state);

  // The client part, by the standard library.
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  const exchanged = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, request.verifier, insecure);
  t.equal(exchanged.headers.get('cache-control'), 'no-store');
  t.equal(exchanged.headers.get('pragma'), 'no-cache');
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, exchanged);
  t.equal(tokens.access_token.length, 40);
  t.equal(tokens.refresh_token?.length, 40);
  t.equal(tokens.token_type, 'bearer'); // oauth4webapi lower-cases it; the server sent "Bearer"
  t.equal(tokens.expires_in, 3600);
  t.equal(tokens.scope, 'full_access');
  t.equal(tokens.scopes, 'full_access');
  t.equal(tokens.resource_owner_id, api.organisationId);

  const listed = await restWith(tokens.access_token, tokens.resource_owner_id as string);
  t.equal(listed.status, 200, 'REST answers with the OAuth access token and X-Site: resource_owner_id');
  t.ok(listed.body.$total > 0);

  const renewed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
  t.not(renewed.access_token, tokens.access_token);
  t.not(renewed.refresh_token, tokens.refresh_token, 'every renewal returns a new refresh token');
  t.equal(renewed.resource_owner_id, api.organisationId);
  t.equal((await restWith(renewed.access_token)).status, 200);

  const revoked = await oauth.revocationRequest(as, client, clientAuth, renewed.refresh_token!, insecure);
  // Spec 5.5 answers 204; oauth4webapi's processRevocationResponse insists on 200, so check by hand.
  t.equal(revoked.status, 204);
  t.equal(await revoked.text(), '');
  t.equal((await restWith(renewed.access_token)).status, 401, 'the revoked grant\'s access token is refused');
  t.equal((await restWith(tokens.access_token)).status, 401, 'so is the earlier access token of the same grant');
  t.match(
    await rejection(oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, renewed.refresh_token!, insecure))),
    { error: 'invalid_grant' },
    'the revoked refresh token is refused',
  );
});

t.test('public client: PKCE, client_id only, default scope readonly, revoking the access token', async (t) => {
  const registered = await service.identity.createClient('Pocket App', 'http://127.0.0.1:9/cb', true);
  t.equal(registered.client_secret, null);
  const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
  const as = authorizationServer(base);
  const request = await pkceRequest(base, client.client_id, 'http://127.0.0.1:9/cb', 'ignored');
  request.url.searchParams.delete('scope'); // no scope: the least privilege
  const callback = await approve(base, request.url);
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, 'http://127.0.0.1:9/cb', request.verifier, insecure),
  );
  t.equal(tokens.scope, 'readonly');
  t.equal((await restWith(tokens.access_token)).status, 200);

  const renewed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure));
  t.equal(renewed.scope, 'readonly');
  const revoked = await oauth.revocationRequest(as, client, oauth.None(), renewed.access_token, insecure);
  t.equal(revoked.status, 204);
  t.equal((await restWith(renewed.access_token)).status, 401, 'the revoked access token is refused');
  t.match(
    await rejection(oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), renewed.refresh_token!, insecure))),
    { error: 'invalid_grant' },
    'revoking the access token ends the authorization (spec 5.5: the user must authorize again)',
  );
  const unknown = await oauth.revocationRequest(as, client, oauth.None(), 'x'.repeat(40), insecure);
  t.equal(unknown.status, 204, 'unknown tokens are not an error (RFC 7009)');
});

t.test('a user of several organisations chooses one; its country decides the token endpoint', async (t) => {
  const created = await service.commands.createOrganisation({ userId: undefined }, { name: 'Demo Trading Ltd', country: 'GB' });
  await service.daemon.waitFor(created.position);
  await service.identity.createUser(created.id, DEMO_USER.email, 'unused: the user exists', 'accountant');
  const registered = await service.identity.createClient('Multi Org', REDIRECT, false);
  const client: oauth.Client = { client_id: registered.client_id };
  const clientAuth = oauth.ClientSecretPost(registered.client_secret!);
  const request = await pkceRequest(base, client.client_id, REDIRECT, 'readonly');

  const browser = new Browser(base);
  const consent = await browser.signIn(await browser.get(request.url));
  const form = parseForm(consent.html);
  t.same(new Set(form.organisations), new Set([api.organisationId, created.id]), 'the consent lets the user choose the organisation');
  t.match(consent.html, /Demo Trading Ltd \(GB\)/);
  const done = await browser.consent(consent, 'approve', created.id);
  const callback = new URL(done.location!);
  t.equal(callback.searchParams.get('country'), 'GB');

  const params = oauth.validateAuthResponse(authorizationServer(base, 'uk'), client, callback, request.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    authorizationServer(base, 'uk'), client,
    await oauth.authorizationCodeGrantRequest(authorizationServer(base, 'uk'), client, clientAuth, params, REDIRECT, request.verifier, insecure),
  );
  t.equal(tokens.resource_owner_id, created.id);
  t.equal((await restWith(tokens.access_token, created.id)).status, 200);
});
