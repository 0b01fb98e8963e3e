import type { IncomingMessage } from 'node:http';
import { API_SECURITY_HEADERS, type Logger, type ServiceMetrics } from '@dcg/http-kit';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { McpEnv } from './app-env';
import type { CorsPolicy } from './cors';
import { reusedCredential } from './oauth/reuse-detection';
import type { tokenEndpointThrottle } from './oauth/token-endpoint-throttle';
import type { registrationRateLimit } from './registration-rate-limit';

/** oidc-provider's error events: each carries the OAuth error (`error.error`, e.g. `invalid_grant`). */
const ERROR_EVENTS = [
  'authorization.error',
  'backchannel.error',
  'discovery.error',
  'end_session.error',
  'grant.error',
  'jwks.error',
  'pushed_authorization_request.error',
  'registration_create.error',
  'registration_delete.error',
  'registration_read.error',
  'registration_update.error',
  'revocation.error',
  'server_error',
] as const;

// The logger of the request an event belongs to (oidc-provider hands events its Koa context).
const requestLoggers = new WeakMap<IncomingMessage, Logger>();

/**
 * Logs and counts every OAuth error oidc-provider answers, by endpoint and OAuth error code
 * (`mcp_oauth_errors_total`), with the request id of the request that got it; a reused code or
 * refresh token (its grant revoked: a leaked or replayed credential) is counted apart too, by
 * credential (`mcp_oauth_reuse_detected_total`), and logged as a warning.
 *
 * @example
 * countOAuthErrors(provider, { logger, metrics });
 */
export function countOAuthErrors(
  provider: Provider,
  deps: { logger: Logger; metrics: ServiceMetrics },
): void {
  const errors = deps.metrics.counter(
    'mcp_oauth_errors_total',
    'OAuth errors answered by the authorization server, by endpoint and OAuth error code',
    ['endpoint', 'code'],
  );
  const reuses = deps.metrics.counter(
    'mcp_oauth_reuse_detected_total',
    'Authorization codes and refresh tokens presented again after their use: the grant is revoked (OAuth 2.1 §4.1.3)',
    ['credential'],
  );
  // From zero, so that an alert on increase() sees the series before the first reuse.
  for (const credential of ['authorization_code', 'refresh_token'] as const)
    reuses.inc({ credential }, 0);
  for (const event of ERROR_EVENTS) {
    // Through the EventEmitter signature: the typings list each event with a different context.
    (provider as unknown as NodeJS.EventEmitter).on(
      event,
      (ctx: { req?: IncomingMessage } | undefined, error: unknown) => {
        const failure = error as {
          error?: unknown;
          error_description?: unknown;
          message?: unknown;
        };
        const code = typeof failure?.error === 'string' ? failure.error : 'server_error';
        const endpoint = event.replace(/\.error$/, '');
        errors.inc({ endpoint, code });
        const logger = (ctx?.req && requestLoggers.get(ctx.req)) || deps.logger;
        const fields = {
          endpoint,
          code,
          description: String(failure?.error_description ?? failure?.message ?? ''),
        };
        const reused = reusedCredential(error);
        if (reused) reuses.inc({ credential: reused });
        if (event === 'server_error') logger.error('OAuth server error', { ...fields, error });
        else if (reused)
          logger.warn('OAuth credential reused: grant revoked', { ...fields, credential: reused });
        else logger.info('OAuth error', fields);
      },
    );
  }
}

/**
 * The authorization server's endpoints (oidc-provider, a Koa app on Node's req/res) as routes of
 * the Hono app, so that they pass the same middleware as every other route: metrics, request log
 * and id, rate limits. oidc-provider writes its response itself; this sets the security headers
 * and our CORS first, waits for the response to end, and hands Hono its real status.
 *
 * The paths come from oidc-provider's own discovery document (see `authorizationServerPaths`), so
 * what is routed is what is advertised.
 *
 * @example
 * app.route('/', authorizationServerRoutes({ provider, paths, browserPaths, cors, registrations }));
 */
export function authorizationServerRoutes(deps: {
  provider: Provider;
  /** Every path oidc-provider answers (its endpoints and the two metadata documents). */
  paths: readonly string[];
  /** Browser navigations (authorization, end of session): they never answer CORS. */
  browserPaths: readonly string[];
  cors: CorsPolicy;
  registrations: ReturnType<typeof registrationRateLimit>;
  /** The token endpoint's path and its back-off for wrong client credentials. */
  token?: { path: string; throttle: ReturnType<typeof tokenEndpointThrottle> };
}): Hono<McpEnv> {
  const callback = deps.provider.callback();
  const routes = new Hono<McpEnv>();

  const serve = async (c: Context<McpEnv>, path: string): Promise<Response> => {
    const { incoming: req, outgoing: res } = c.env ?? {};
    if (!req || !res) throw new Error('the authorization server runs on a Node HTTP server only');
    const origin = c.req.header('origin');
    const corsApplies = !deps.browserPaths.some((p) => path === p || path.startsWith(`${p}/`));
    if (req.method === 'OPTIONS' && corsApplies) {
      return new Response(null, {
        status: 204,
        headers: deps.cors.preflightFor(origin, 'GET, POST, OPTIONS'),
      });
    }
    if (path === '/register' && req.method === 'POST') {
      const wait = deps.registrations.take(req.socket.remoteAddress ?? 'unknown');
      if (wait !== undefined) {
        return c.json(
          {
            error: 'too_many_requests',
            error_description: `Too many registrations; retry in ${wait} s`,
          },
          429,
          { 'retry-after': String(wait), ...(corsApplies ? deps.cors.headersFor(origin) : {}) },
        );
      }
    }
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) res.setHeader(name, value);
    const requestId = c.get('requestId');
    if (requestId) res.setHeader('x-request-id', requestId);
    // The CORS of these endpoints is ours (cors.origin), not oidc-provider's per-client rules.
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name: string, value: number | string | readonly string[]) =>
      name.toLowerCase().startsWith('access-control-') || name.toLowerCase() === 'vary'
        ? res
        : setHeader(name, value);
    if (corsApplies)
      for (const [name, value] of Object.entries(deps.cors.headersFor(origin)))
        setHeader(name, value);
    if (path === '/.well-known/oauth-authorization-server') {
      req.url = `/.well-known/openid-configuration${(req.url ?? '').slice(path.length)}`;
    }
    const logger = c.get('logger');
    if (logger) requestLoggers.set(req, logger);
    await new Promise<void>((done) => {
      res.once('close', done);
      void (async () => {
        const refused =
          deps.token !== undefined &&
          path === deps.token.path &&
          req.method === 'POST' &&
          (await deps.token.throttle.refused(req, res));
        if (!refused) void callback(req, res);
      })();
    });
    // Written already; the status is for the metrics, the request log and the rate limits.
    return new Response(null, {
      status: res.statusCode >= 200 && res.statusCode <= 599 ? res.statusCode : 500,
      headers: { 'x-hono-already-sent': 'true' },
    });
  };

  // Methods listed rather than `all`: the metrics would count a handler for ALL as a middleware.
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  for (const path of deps.paths) {
    routes.on(methods, path, (c) => serve(c, path));
    routes.on(methods, `${path}/*`, (c) => serve(c, path));
  }
  return routes;
}
