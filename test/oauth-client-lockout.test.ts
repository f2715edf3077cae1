/**
 * Nobody can lock a client out of the token endpoint by knowing its client_id (issue 15, item 3): an
 * attacker's address hammers with the real client_id and a wrong secret and is refused with 429 after
 * its budget, while the real client, from another address or the same one, still exchanges its code. The two loopback
 * addresses 127.0.0.1 and 127.0.0.2 are two sources to the service (it trusts no proxy header).
 */
import { request as httpRequest } from 'node:http';
import t from 'tap';
import { DEFAULT_OAUTH_SETTINGS } from '../api/oauth/settings.ts';
import { approve, pkceRequest, postForm } from './helpers/oauth.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { base, service } = api;
const REDIRECT = 'https://app.example.com/callback';
const BUDGET = DEFAULT_OAUTH_SETTINGS.rateLimits.tokenUnauthenticatedPerIp;

/** A form POST sent from `localAddress`, so the service sees it coming from there. */
function postFrom(localAddress: string, path: string, fields: Record<string, string>, basic?: [string, string]): Promise<{ status: number; body: any }> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(new URLSearchParams(fields).toString());
  });
}

t.test('wrong secrets from one address do not stop the real client elsewhere', async (t) => {
  const client = await service.identity.createClient('Victim App', REDIRECT, false);
  const request = await pkceRequest(base, client.client_id, REDIRECT);
  const code = (await approve(base, request.url)).searchParams.get('code')!;
  const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: request.verifier };

  const attacker = '127.0.0.2';
  const statuses: number[] = [];
  for (let i = 0; i < BUDGET + 5; i++) {
    const guess = i % 2 === 0
      ? await postFrom(attacker, '/oauth/eu/token', { ...exchange, client_id: client.client_id, client_secret: `guess-${i}` })
      : await postFrom(attacker, '/oauth/eu/token', exchange, [client.client_id, `guess-${i}`]);
    statuses.push(guess.status);
  }
  t.same(statuses.slice(0, BUDGET), Array(BUDGET).fill(401), `the first ${BUDGET} wrong secrets are answered invalid_client`);
  t.same(statuses.slice(BUDGET), Array(5).fill(429), 'then the address is refused');
  const wrongAgain = await postFrom(attacker, '/oauth/eu/token', { ...exchange, client_id: client.client_id, client_secret: 'guess-again' });
  t.equal(wrongAgain.status, 429, 'a further wrong secret from the spent address is refused');
  t.match(wrongAgain.body.error_description, new RegExp(`More than ${BUDGET} unauthenticated token requests a minute from this address`));
  // The same address may be the real client's too: a NAT, or a reverse proxy in front of the service.
  const sameAddress = await pkceRequest(base, client.client_id, REDIRECT);
  const sameAddressCode = (await approve(base, sameAddress.url)).searchParams.get('code')!;
  const right = await postFrom(attacker, '/oauth/eu/token', {
    grant_type: 'authorization_code', code: sameAddressCode, redirect_uri: REDIRECT, code_verifier: sameAddress.verifier, client_id: client.client_id, client_secret: client.client_secret!,
  });
  t.equal(right.status, 200, 'the real client behind the same address still authenticates: the address budget is for unauthenticated requests only');

  const real = await postForm(`${base}/oauth/eu/token`, { ...exchange, client_id: client.client_id, client_secret: client.client_secret! });
  t.equal(real.status, 200, 'the real client, from its own address, still exchanges its code');
  t.ok(real.body.access_token);
  const revoked = await postForm(`${base}/oauth/eu/revoke`, { token: real.body.access_token }, [client.client_id, client.client_secret!]);
  t.equal(revoked.status, 204, 'and revokes');
});

t.test('a public client is counted by address, never by its (public) client_id', async (t) => {
  const spa = await service.identity.createClient('Public App', REDIRECT, true);
  const attacker = '127.0.0.3';
  for (let i = 0; i < BUDGET; i++) await postFrom(attacker, '/oauth/eu/token', { grant_type: 'refresh_token', refresh_token: `forged-${i}`, client_id: spa.client_id });
  const blocked = await postFrom(attacker, '/oauth/eu/token', { grant_type: 'refresh_token', refresh_token: 'forged', client_id: spa.client_id });
  t.equal(blocked.status, 429, 'the attacking address is refused');
  const request = await pkceRequest(base, spa.client_id, REDIRECT);
  const code = (await approve(base, request.url)).searchParams.get('code')!;
  const real = await postForm(`${base}/oauth/eu/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: request.verifier, client_id: spa.client_id });
  t.equal(real.status, 200, 'the public client, from its own address, still exchanges its code');
});
