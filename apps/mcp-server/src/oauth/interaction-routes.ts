import { createHmac, timingSafeEqual } from 'node:crypto';
import { clientOfAddress, type ServiceMetrics } from '@dcg/http-kit';
import { SCOPE_DESCRIPTIONS } from '@dcg/mcp-tools';
import { type Context, Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { McpEnv } from '../app-env';
import type { McpServerConfig } from '../config';
import {
  AUTHORIZATION_PAGE_CSP,
  consentPage,
  EXPIRED_PAGE,
  loginPage,
  refusalPage,
} from './authorization-pages';
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
    'content-security-policy': AUTHORIZATION_PAGE_CSP,
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
      return c.html(loginPage({ uid: details.uid, csrf: token, clientName }));
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
      consentPage({
        uid: details.uid,
        csrf: token,
        clientName,
        clientId: String(details.params.client_id),
        scopes: scopes.map((scope) => ({
          scope,
          description:
            SCOPE_DESCRIPTIONS[scope as keyof typeof SCOPE_DESCRIPTIONS] ??
            (scope === 'offline_access' ? 'Stay signed in (refresh tokens)' : scope),
        })),
        resource,
        accountId: String(details.session?.accountId ?? ''),
        redirect,
      }),
    );
  });

  app.post('/interaction/:uid/:action{login|confirm|abort}', async (c) => {
    const provider = deps.provider();
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== deps.origin)
      return c.html(refusalPage('Refused', 'This form must be sent from this server.'), 403);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const details = await interactionOf(provider, c);
    if (!details) return c.html(EXPIRED_PAGE, 400);
    if (!csrfValid(details.uid, form.csrf))
      return c.html(
        refusalPage('Refused', 'The form is not valid (CSRF). Start again from your application.'),
        403,
      );
    const action = c.req.param('action');
    // Every answer of the login page names the client, wrong password or not.
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const login = (alert: string, username: string) =>
      loginPage({ uid: details.uid, csrf: csrf(details.uid), clientName, alert, username });
    let result: Record<string, unknown>;
    if (action === 'abort') {
      result = { error: 'access_denied', error_description: 'The user denied access' };
    } else if (action === 'login' && deps.upstream) {
      return c.html(refusalPage('Refused', 'Sign in at the identity provider.'), 400);
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
          login(
            `Signing in is not possible right now. Try again in ${UNAVAILABLE_RETRY_SECONDS} s.`,
            username,
          ),
          503,
        );
      }
      if (wait > 0) {
        counted('throttled');
        c.header('retry-after', String(wait));
        return c.html(login(tooMany(wait), username), 429);
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
          login(
            `Wrong user name or password.${locked > 0 ? ` Wait ${locked} s before the next try.` : ''}`,
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
        return c.html(refusalPage('Refused', 'Sign in first.'), 400);
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

function tooMany(wait: number): string {
  return `Too many failed sign-ins for this user name or from your network. Try again in ${wait} s.`;
}
