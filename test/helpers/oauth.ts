/**
 * OAuth test support: a cookie-keeping "browser" over plain fetch that walks the real HTML pages
 * (authorize -> sign-in form -> consent form -> redirect), and oauth4webapi's view of our server.
 */
import * as oauth from 'oauth4webapi';

export const DEMO_USER = { email: 'demo@example.com', password: 'demo-password' };
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The authorization server as oauth4webapi sees it, with the token endpoints of one country group. */
export function authorizationServer(base: string, region: 'na' | 'eu' | 'uk' = 'eu'): oauth.AuthorizationServer {
  return {
    issuer: `${base}/oauth`,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/${region}/token`,
    revocation_endpoint: `${base}/oauth/${region}/revoke`,
  };
}

export interface Page {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

export interface HtmlForm {
  action: string;
  fields: Record<string, string>;
  /** The values of the submit buttons named `decision`. */
  decisions: string[];
  /** The option values of a `<select name="organisation">`, if the form has one. */
  organisations: string[];
}

/** The first form of a page: its action, hidden and prefilled fields, buttons and organisation choices. */
export function parseForm(html: string): HtmlForm {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no form in page:\n${html}`);
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const fields: Record<string, string> = {};
  for (const [tag] of form[2].matchAll(/<input[^>]*>/g)) {
    const name = attr(tag, 'name');
    if (name && attr(tag, 'type') === 'hidden') fields[name] = attr(tag, 'value') ?? '';
  }
  const decisions = [...form[2].matchAll(/<button[^>]*name="decision"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
  const select = /<select[^>]*name="organisation"[^>]*>([\s\S]*?)<\/select>/.exec(form[2]);
  const organisations = select ? [...select[1].matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]) : [];
  return { action: form[1], fields, decisions, organisations };
}

/** Plain fetch plus a cookie jar; redirects are not followed so tests can look at them. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  private async page(response: Response): Promise<Page> {
    this.remember(response);
    return { status: response.status, html: await response.text(), location: response.headers.get('location'), headers: response.headers };
  }

  async get(url: string | URL): Promise<Page> {
    return this.page(await fetch(new URL(url, this.base), { redirect: 'manual', headers: { cookie: this.cookieHeader() } }));
  }

  async post(path: string, fields: Record<string, string>): Promise<Page> {
    return this.page(
      await fetch(new URL(path, this.base), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookieHeader() },
        body: new URLSearchParams(fields),
      }),
    );
  }

  /** Fills and submits the sign-in form of `page`. */
  async signIn(page: Page, user = DEMO_USER): Promise<Page> {
    const form = parseForm(page.html);
    return this.post(form.action, { ...form.fields, email: user.email, password: user.password });
  }

  /** Answers the consent form of `page`: allow (optionally choosing an organisation) or deny. */
  async consent(page: Page, decision: 'approve' | 'deny', organisation?: string): Promise<Page> {
    const form = parseForm(page.html);
    return this.post(form.action, { ...form.fields, ...(organisation ? { organisation } : {}), decision });
  }
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  [extra: string]: string | undefined;
}

export function authorizeUrl(base: string, params: AuthorizeParams): URL {
  const url = new URL('/oauth/authorize', base);
  for (const [k, v] of Object.entries({ response_type: 'code', ...params })) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

export interface PkceRequest {
  verifier: string;
  state: string;
  url: URL;
}

/** An authorization request with PKCE S256 and state, as oauth4webapi's helpers make them. */
export async function pkceRequest(base: string, clientId: string, redirectUri: string, scope = 'full_access', extra: Record<string, string> = {}): Promise<PkceRequest> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizeUrl(base, {
    client_id: clientId, redirect_uri: redirectUri, scope, state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra,
  });
  return { verifier, state, url };
}

/** Walks authorize -> sign-in -> consent(approve) in a fresh browser; returns the final redirect. */
export async function approve(base: string, url: URL, user = DEMO_USER, organisation?: string): Promise<URL> {
  const browser = new Browser(base);
  const signIn = await browser.get(url);
  if (signIn.status !== 200) throw new Error(`authorize answered ${signIn.status} ${signIn.location ?? signIn.html}`);
  const consent = await browser.signIn(signIn, user);
  if (consent.status !== 200) throw new Error(`sign-in answered ${consent.status} ${consent.location ?? consent.html}`);
  const done = await browser.consent(consent, 'approve', organisation);
  if (done.status !== 303 || !done.location) throw new Error(`consent answered ${done.status} ${done.html}`);
  return new URL(done.location);
}

/** What a promise rejected with (undefined when it resolved): to match oauth4webapi's errors. */
export const rejection = (promise: Promise<unknown>): Promise<any> => promise.then(() => undefined, (error) => error);

/** Form-encoded POST with optional HTTP Basic, for the requests oauth4webapi would refuse to send. */
export async function postForm(url: string, fields: Record<string, string>, basic?: [string, string]) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic[0])}:${encodeURIComponent(basic[1])}`).toString('base64')}`;
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
