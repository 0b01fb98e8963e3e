import { createHmac, timingSafeEqual } from 'node:crypto';
import { clientOfAddress, type ServiceMetrics } from '@dcg/http-kit';
import { SCOPE_DESCRIPTIONS } from '@dcg/mcp-tools';
import { type Context, Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { McpEnv } from '../app-env';
import type { McpServerConfig } from '../config';
import { escapeHtml } from './authorization-server';
import { type FailureThrottle, failureThrottle } from './failure-throttle';
import { verifyPassword } from './passwords';

const LOGIN_OUTCOMES = ['success', 'wrong_credentials', 'throttled', 'unavailable'] as const;
type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/**
 * The login and consent pages of `/authorize` (server-rendered, no script): a person signs in
 * with a configured user (scrypt-hashed password), then sees which client asks for which scopes
 * on which resource, and approves or denies. Forms carry a CSRF token bound to the interaction and
 * must come from this origin.
 *
 * @example
 * app.route('/', interactionRoutes({ provider: () => provider, users, csrfKey, origin }));
 */
export function interactionRoutes(deps: {
  provider: () => Provider;
  users: McpServerConfig['oauth']['users'];
  csrfKey: string;
  origin: string;
  /** When set, people sign in there instead of with `users`. */
  upstream?: { start(uid: string): Promise<string> } | undefined;
  /** Back-off of failed sign-ins per account and per client address (default: 5 free, then 1 s doubling to 15 min). */
  throttle?: FailureThrottle;
  /** Where sign-ins are counted by outcome (`mcp_oauth_logins_total`). */
  metrics?: ServiceMetrics | undefined;
}): Hono<McpEnv> {
  const app = new Hono<McpEnv>();
  const throttle = deps.throttle ?? failureThrottle();
  const logins = deps.metrics?.counter(
    'mcp_oauth_logins_total',
    'Sign-ins on the login page by outcome: success, wrong_credentials (401), throttled (429: the back-off of failed sign-ins), unavailable (503: the back-off store did not answer)',
    ['outcome'],
  );
  // Every outcome from zero, so that a rate of failures has a series before the first one.
  for (const outcome of LOGIN_OUTCOMES) logins?.inc({ outcome }, 0);
  const counted = (outcome: LoginOutcome) => logins?.inc({ outcome });
  const csrf = (uid: string) => createHmac('sha256', deps.csrfKey).update(uid).digest('base64url');
  const csrfValid = (uid: string, token: unknown) => {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(csrf(uid));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  const security = {
    // No form-action: Chromium applies it to the redirects that follow a post, and the consent
    // ends in a redirect to the client.
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    // Not no-referrer: with it, Chromium sends "Origin: null" on the page's own form posts.
    'referrer-policy': 'same-origin',
  };

  app.use('/interaction/*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(security)) c.header(name, value);
  });

  app.get('/interaction/:uid', async (c) => {
    const provider = deps.provider();
    const details = await interactionOf(provider, c);
    if (!details) return c.html(EXPIRED_PAGE, 400);
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const token = csrf(details.uid);
    if (details.prompt.name === 'login' && deps.upstream) {
      return c.redirect(await deps.upstream.start(details.uid), 303);
    }
    if (details.prompt.name === 'login') {
      return c.html(
        loginPage(
          details.uid,
          token,
          `<p><strong>${escapeHtml(clientName)}</strong> wants to use the dcg MCP server on your behalf.</p>`,
        ),
      );
    }
    const scopes = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const resource = String(details.params.resource ?? '');
    const redirect = redirectTarget(
      String(details.params.redirect_uri ?? ''),
      client?.redirectUris ?? [],
    );
    return c.html(
      page(
        'Allow access?',
        `<p><strong>${escapeHtml(clientName)}</strong> (<code>${escapeHtml(String(details.params.client_id))}</code>) asks to:</p>
<ul>${scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[s as keyof typeof SCOPE_DESCRIPTIONS] ?? (s === 'offline_access' ? 'Stay signed in (refresh tokens)' : s))}</li>`).join('')}</ul>
<p>on <code>${escapeHtml(resource)}</code>, as <strong>${escapeHtml(String(details.session?.accountId ?? ''))}</strong>.</p>
<p>If you allow, you go back to <strong class="redirect-host">${escapeHtml(redirect.host)}</strong>.</p>${
          redirect.onlyLocalhost
            ? `<p role="alert" class="warning">This application can only send you back to this computer (${escapeHtml(redirect.host)}): any program on it can claim the name above. Allow only if you started ${escapeHtml(clientName)} yourself, just now.</p>`
            : ''
        }
<form method="post" action="/interaction/${escapeHtml(details.uid)}/confirm">
<input type="hidden" name="csrf" value="${token}">
<button type="submit">Allow</button>
</form>${abortForm(details.uid, token)}`,
      ),
    );
  });

  app.post('/interaction/:uid/:action{login|confirm|abort}', async (c) => {
    const provider = deps.provider();
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== deps.origin)
      return c.html(page('Refused', '<p>This form must be sent from this server.</p>'), 403);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const details = await interactionOf(provider, c);
    if (!details) return c.html(EXPIRED_PAGE, 400);
    if (!csrfValid(details.uid, form.csrf))
      return c.html(
        page('Refused', '<p>The form is not valid (CSRF). Start again from your application.</p>'),
        403,
      );
    const action = c.req.param('action');
    let result: Record<string, unknown>;
    if (action === 'abort') {
      result = { error: 'access_denied', error_description: 'The user denied access' };
    } else if (action === 'login' && deps.upstream) {
      return c.html(page('Refused', '<p>Sign in at the identity provider.</p>'), 400);
    } else if (action === 'login') {
      const username = typeof form.username === 'string' ? form.username.slice(0, 200) : '';
      const password = typeof form.password === 'string' ? form.password : '';
      const keys = [
        `account:${username}`,
        `address:${clientOfAddress(c.env.incoming.socket.remoteAddress)}`,
      ];
      // Checked before the password: a locked attempt costs no scrypt and says nothing. When the
      // shared back-off does not answer, no password is checked at all (fails closed): a guess
      // must never be cheaper because the database is slow or down.
      let wait: number;
      try {
        wait = await throttle.wait(keys);
      } catch {
        counted('unavailable');
        c.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
        return c.html(
          loginPage(
            details.uid,
            csrf(details.uid),
            `<p role="alert" class="error">Signing in is not possible right now. Try again in ${UNAVAILABLE_RETRY_SECONDS} s.</p>`,
            username,
          ),
          503,
        );
      }
      if (wait > 0) {
        counted('throttled');
        c.header('retry-after', String(wait));
        return c.html(loginPage(details.uid, csrf(details.uid), tooMany(wait), username), 429);
      }
      const user = deps.users.find((u) => u.username === username);
      // Verify against a hash even for an unknown user, so timing does not tell who exists.
      const ok = await verifyPassword(password, user?.passwordHash ?? dummyHash);
      if (!user || !ok) {
        counted('wrong_credentials');
        // Not counted when the store fails just now: the answer is the same 401 either way.
        const locked = await Promise.resolve(throttle.failed(keys)).catch(() => 0);
        if (locked > 0) c.header('retry-after', String(locked));
        return c.html(
          loginPage(
            details.uid,
            csrf(details.uid),
            `<p role="alert" class="error">Wrong user name or password.${locked > 0 ? ` Wait ${locked} s before the next try.` : ''}</p>`,
            username,
          ),
          401,
        );
      }
      counted('success');
      await Promise.resolve(throttle.succeeded([keys[0]!])).catch(() => undefined);
      result = { login: { accountId: user.username } };
    } else {
      if (details.prompt.name !== 'consent' || !details.session?.accountId) {
        return c.html(page('Refused', '<p>Sign in first.</p>'), 400);
      }
      const accountId = details.session.accountId;
      const user = deps.users.find((u) => u.username === accountId);
      const allowed = (scopes: string[]) =>
        user?.scopes ? scopes.filter((s) => user.scopes!.includes(s)) : scopes;
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ??
          new provider.Grant({ accountId, clientId: String(details.params.client_id) }))
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(allowed(missing.missingOIDCScope).join(' '));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, allowed(scopes).join(' '));
      }
      result = { consent: { grantId: await grant.save() } };
    }
    const redirectTo = await provider.interactionResult(c.env.incoming, c.env.outgoing, result, {
      mergeWithLastSubmission: action !== 'abort',
    });
    return c.redirect(redirectTo, 303);
  });

  return app;
}

/** Retry-After of a sign-in refused because the shared back-off did not answer. */
const UNAVAILABLE_RETRY_SECONDS = 30;

const dummyHash =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** The interaction of this request's cookie, when it is the one the URL names (else expired). */
async function interactionOf(provider: Provider, c: Context<McpEnv>) {
  const details = await provider
    .interactionDetails(c.env.incoming, c.env.outgoing)
    .catch(() => undefined);
  return details && details.uid === c.req.param('uid') ? details : undefined;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where the browser goes after the consent (the host of the redirect URI of this request), and
 * whether every redirect URI of the client is on this computer: then nothing but the name it
 * claims tells the client apart from any local program (Client ID Metadata Documents, security
 * considerations), and the page says so.
 */
function redirectTarget(
  redirectUri: string,
  registered: readonly string[],
): { host: string; onlyLocalhost: boolean } {
  const hostOf = (uri: string) => (URL.canParse(uri) ? new URL(uri).hostname : '');
  const all = registered.length > 0 ? registered : [redirectUri];
  return {
    host: URL.canParse(redirectUri) ? new URL(redirectUri).host : redirectUri,
    onlyLocalhost: all.every((uri) => {
      const host = hostOf(uri);
      return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost');
    }),
  };
}

/** What the login page says about the back-off, always: people should know before they are locked. */
const THROTTLE_NOTE =
  '<p class="note">After 5 wrong passwords for one user name, or from one network, each further try must wait twice as long as the last (from 1 second up to 15 minutes).</p>';

function tooMany(wait: number): string {
  return `<p role="alert" class="error">Too many failed sign-ins for this user name or from your network. Try again in ${wait} s.</p>`;
}

function loginPage(uid: string, token: string, lead: string, username?: string): string {
  return page(
    'Sign in',
    `${lead}<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<input type="hidden" name="csrf" value="${token}">
<label>User name <input name="username" autocomplete="username" required${username === undefined ? ' autofocus' : ` value="${escapeHtml(username)}"`}></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required${username === undefined ? '' : ' autofocus'}></label>
<button type="submit">Sign in</button>
</form>${abortForm(uid, token)}${THROTTLE_NOTE}`,
  );
}

function abortForm(uid: string, token: string): string {
  return `<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><input type="hidden" name="csrf" value="${token}"><button type="submit" class="secondary">Deny</button></form>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · dcg MCP server</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}label{display:block;margin:.75rem 0}input{display:block;width:100%;padding:.5rem;font:inherit;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1.25rem;font:inherit;background:#1f5fbf;color:#fff;border:0;border-radius:4px}button.secondary{background:#e6e8eb;color:#1b1f24}.error{color:#a40e26}code{background:#f2f4f6;padding:0 .25rem}.note{color:#57606a;font-size:.875rem}.warning{color:#8a4600}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const EXPIRED_PAGE = page(
  'Sign-in expired',
  '<p>This sign-in has expired. Start again from your application.</p>',
);
