/**
 * The server-rendered pages of the authorization endpoint: sign-in, consent and error. Plain HTML
 * forms posting to this server (no script needed); every interpolated value goes through `escape`.
 */
import type { FastifyReply } from 'fastify';
import type { Membership, Scope } from '../auth/identity.ts';

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SCOPE_TEXT: Record<Scope, string> = {
  readonly: 'read your organisation’s accounting data (it cannot change anything)',
  full_access: 'read and change your organisation’s accounting data (post entries, edit accounts and settings)',
};

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password],select{width:100%;padding:.5rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1.2rem}.error{color:#a00;border:1px solid #a00;padding:.5rem}.scope{font-weight:600}`;

/**
 * Security headers: no caching, no framing (the consent must not be clickjacked), no referrer (the
 * URL carries the request id), scripts impossible. Forms may post here and, after a redirect, reach
 * the application's registered redirect URI (Chrome checks form-action along redirects).
 */
function pageHeaders(reply: FastifyReply, redirectUri?: string) {
  let formAction = `'self'`;
  if (redirectUri) {
    const target = new URL(redirectUri);
    formAction += ` ${target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol}`;
  }
  return reply
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`);
}

function layout(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

/** The two hidden fields every form carries: which request, and its CSRF token. */
const hidden = (requestId: string, csrf: string) =>
  `<input type="hidden" name="request" value="${escape(requestId)}">\n<input type="hidden" name="csrf" value="${escape(csrf)}">`;

export interface SignInView {
  requestId: string;
  csrf: string;
  clientName: string;
  scope: Scope;
  redirectUri: string;
  email?: string;
  error?: string;
}

export function sendSignInPage(reply: FastifyReply, view: SignInView, status = 200) {
  const body = `<h1>Sign in</h1>
<p><strong>${escape(view.clientName)}</strong> wants to <span class="scope">${escape(SCOPE_TEXT[view.scope])}</span>. Sign in to continue.</p>
${view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/sign-in">
${hidden(view.requestId, view.csrf)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escape(view.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<button type="submit">Sign in</button>
</form>`;
  return pageHeaders(reply, view.redirectUri).code(status).send(layout('Sign in', body));
}

export interface ConsentView {
  requestId: string;
  csrf: string;
  clientName: string;
  scope: Scope;
  redirectUri: string;
  email: string;
  organisations: Membership[];
  error?: string;
}

const organisationLabel = (m: Membership) => `${m.name ?? m.organisationId}${m.country ? ` (${m.country})` : ''}`;

export function sendConsentPage(reply: FastifyReply, view: ConsentView, status = 200) {
  const [only] = view.organisations;
  const chooser =
    view.organisations.length === 1
      ? `<p>Organisation: <strong>${escape(organisationLabel(only))}</strong></p>\n<input type="hidden" name="organisation" value="${escape(only.organisationId)}">`
      : `<label for="organisation">Organisation</label>
<select id="organisation" name="organisation" required>
${view.organisations.map((m) => `<option value="${escape(m.organisationId)}">${escape(organisationLabel(m))}</option>`).join('\n')}
</select>`;
  const body = `<h1>Authorize ${escape(view.clientName)}</h1>
<p>Signed in as ${escape(view.email)}.</p>
<p><strong>${escape(view.clientName)}</strong> asks to <span class="scope">${escape(SCOPE_TEXT[view.scope])}</span>.</p>
${view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/consent">
${hidden(view.requestId, view.csrf)}
${chooser}
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  return pageHeaders(reply, view.redirectUri).code(status).send(layout(`Authorize ${view.clientName}`, body));
}

/** A dead end shown instead of redirecting, when the redirect target cannot be trusted (RFC 6749 4.1.2.1). */
export function sendErrorPage(reply: FastifyReply, status: number, title: string, message: string) {
  const body = `<h1>${escape(title)}</h1>\n<p>${escape(message)}</p>\n<p>Return to the application and start again.</p>`;
  return pageHeaders(reply).code(status).send(layout(title, body));
}
