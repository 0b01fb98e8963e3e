import { randomBytes } from 'node:crypto';
import type { Logger, ServiceMetrics, SharedLimits } from '@dcg/http-kit';
import { SCOPES } from '@dcg/mcp-tools';
import {
  type AuthInfo,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
} from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { McpEnv } from './app-env';
import { authorizationServerRoutes, countOAuthErrors } from './authorization-server-routes';
import { type McpServerConfig, resolveSecret } from './config';
import type { CorsPolicy } from './cors';
import { loopbackOrigins } from './loopback-origins';
import { createAuthorizationServer, publicJwks } from './oauth/authorization-server';
import {
  authorizationServerPaths,
  type DiscoveryDocument,
  readDiscoveryDocument,
} from './oauth/discovery-document';
import {
  type FailureThrottle,
  failureThrottle,
  sharedFailureThrottle,
} from './oauth/failure-throttle';
import { interactionRoutes } from './oauth/interaction-routes';
import { metadataDocumentFetch } from './oauth/metadata-document-fetch';
import type { OAuthStore } from './oauth/oauth-store';
import { hashPassword } from './oauth/passwords';
import { createResourceGate } from './oauth/resource-gate';
import { loadSigningKeys } from './oauth/signing-keys';
import { tokenEndpointThrottle } from './oauth/token-endpoint-throttle';
import { createTokenVerifier } from './oauth/token-verifier';
import { upstreamOidc } from './oauth/upstream-oidc';
import { registrationRateLimit } from './registration-rate-limit';

/**
 * What {@link createOAuth} is built from: the `oauth` configuration, the store it keeps clients,
 * grants and keys in, and where the server is reached.
 *
 * @example
 * const options: OAuthOptions = { oauth: config.oauth, store, publicUrl, resource, cors, logger, metrics, env };
 */
export interface OAuthOptions {
  oauth: McpServerConfig['oauth'];
  store: OAuthStore;
  /** Counters shared by the instances on PostgreSQL: the sign-in and client secret back-offs. */
  sharedLimits?: SharedLimits | undefined;
  /** The server's public URL: the issuer is its origin. */
  publicUrl: string;
  /** The MCP endpoint: the resource the access tokens are for (RFC 8707). */
  resource: URL;
  cors: CorsPolicy;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Where the `env:` secrets are read from. */
  env: Record<string, string | undefined>;
  /** Adds the user `demo` with a random password when no user is configured (never in production). */
  demo?: boolean;
  production: boolean;
}

/**
 * The OAuth part of mcp-server, built by {@link createOAuth}: its routes as one sub-app, and the
 * bearer gate `/mcp` asks for each request.
 */
export interface OAuth {
  /**
   * The authorization server (oidc-provider's endpoints and its metadata), the sign-in and consent
   * pages, the upstream sign-in's callback and the protected resource metadata (RFC 9728).
   */
  routes: Hono<McpEnv>;
  /** The access token check of `/mcp`: the caller's AuthInfo, or the 401/403 to answer. */
  gate: (request: Request) => Promise<AuthInfo | Response>;
  provider: Provider;
  /** The demo user, when `demo` made one. */
  demoUser?: { username: string; password: string };
  /** Stops the store's sweeps (the store itself is closed by whoever opened it). */
  close(): void;
}

/**
 * Builds mcp-server's OAuth 2.1 authorization server (oidc-provider over `store`), its sign-in
 * pages, the token endpoint's back-off, the discovery documents and the access token verifier of
 * `/mcp`; mount `routes` like any other sub-app and hand `gate` to the MCP route.
 *
 * @example
 * const oauth = await createOAuth({ oauth: config.oauth, store, publicUrl, resource, cors, logger, metrics, env, production: false });
 * app.route('/', oauth.routes);
 */
export async function createOAuth(options: OAuthOptions): Promise<OAuth> {
  const { oauth, store, logger, metrics, resource } = options;
  const issuer = new URL(options.publicUrl).origin;
  let users = oauth.users;
  let demoUser: OAuth['demoUser'];
  if (options.demo && options.production) {
    logger.warn(
      'production (NODE_ENV is not development or test): no demo user is created or accepted',
      { NODE_ENV: options.env.NODE_ENV },
    );
  } else if (options.demo && users.length === 0 && !oauth.upstream) {
    demoUser = { username: 'demo', password: randomBytes(9).toString('base64url') };
    users = [{ username: demoUser.username, passwordHash: await hashPassword(demoUser.password) }];
  }
  // On PostgreSQL, sign-in and client secret back-offs are counted there, for every instance.
  const backOff = (name: string): FailureThrottle =>
    options.sharedLimits ? sharedFailureThrottle(options.sharedLimits, name) : failureThrottle();

  const keys = await loadSigningKeys(store.keys, {
    rotationDays: oauth.signingKeyRotationDays,
    retainSeconds: oauth.accessTokenTtlSeconds,
  });
  const fetchSettings = oauth.clientIdMetadataDocumentFetch;
  if (fetchSettings.allowLoopbackForTests) {
    logger.warn('client id metadata documents may be fetched from loopback (tests only)');
  }
  const provider = createAuthorizationServer({
    issuer,
    resource: resource.href,
    oauth,
    store,
    keys,
    fetch: metadataDocumentFetch(fetchSettings, options.env),
  });
  countOAuthErrors(provider, { logger, metrics });
  const loopbackAliases = loopbackOrigins(options.publicUrl);
  const gate = createResourceGate({
    verifier: createTokenVerifier({
      issuer,
      resource: resource.href,
      publicJwks: publicJwks(keys),
      store,
    }),
    resource,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
    // On loopback a client may name the server under any of its loopback names.
    targets: loopbackAliases
      ? loopbackAliases.map((origin) => `${origin}${resource.pathname}`)
      : [resource.href],
    claim: (id, expiresAt) => store.claimOnce('DPoPProof', id, expiresAt),
  });

  // What the authorization server offers is what oidc-provider says it offers.
  const discovery = await readDiscoveryDocument(provider);
  const pathOf = (url: unknown) => (typeof url === 'string' ? new URL(url).pathname : '');
  const tokenPath = pathOf(discovery.token_endpoint);
  const routes = new Hono<McpEnv>();
  routes.route('/', protectedResourceMetadata(discovery, resource, options.cors));
  const upstream = oauth.upstream
    ? upstreamOidc({
        settings: {
          ...oauth.upstream,
          clientSecret: resolveSecret(oauth.upstream.clientSecret, options.env),
        },
        provider: () => provider,
        store,
        issuer,
      })
    : undefined;
  if (upstream) routes.route('/', upstream.routes);
  routes.route(
    '/',
    interactionRoutes({
      provider: () => provider,
      users,
      csrfKey: keys.cookieKeys[0]!,
      origin: issuer,
      upstream,
      throttle: backOff('login'),
      metrics,
    }),
  );
  routes.route(
    '/',
    authorizationServerRoutes({
      provider,
      paths: authorizationServerPaths(discovery).paths,
      browserPaths: [
        pathOf(discovery.authorization_endpoint),
        pathOf(discovery.end_session_endpoint),
      ].filter(Boolean),
      cors: options.cors,
      registrations: registrationRateLimit(oauth.dynamicRegistration.perMinute),
      ...(tokenPath
        ? { token: { path: tokenPath, throttle: tokenEndpointThrottle(backOff('client-secret')) } }
        : {}),
    }),
  );

  const unusedClientTtlSeconds = oauth.dynamicRegistration.unusedClientTtlSeconds;
  const sweeper = setInterval(
    () => {
      const before = Math.floor(Date.now() / 1000) - unusedClientTtlSeconds;
      Promise.all([store.removeUnusedClients(before), store.sweep()]).catch((error) =>
        logger.warn('OAuth store sweep failed', { error }),
      );
    },
    Math.min(3_600_000, unusedClientTtlSeconds * 250),
  );
  sweeper.unref();

  return {
    routes,
    gate,
    provider,
    ...(demoUser ? { demoUser } : {}),
    close: () => clearInterval(sweeper),
  };
}

/**
 * The protected resource metadata of `/mcp` (RFC 9728), path-aware and at the root: the
 * authorization server, the resource's own scopes (offline_access is the authorization server's
 * business) and the DPoP algorithms it accepts.
 */
function protectedResourceMetadata(
  discovery: DiscoveryDocument,
  resource: URL,
  cors: CorsPolicy,
): Hono<McpEnv> {
  const routes = new Hono<McpEnv>();
  const metadata = buildOAuthProtectedResourceMetadata({
    oauthMetadata: discovery,
    resourceServerUrl: resource,
    scopesSupported: Object.values(SCOPES),
    resourceName: 'dcg marketplace and knowledge graph',
    dangerouslyAllowInsecureIssuerUrl: true,
  });
  const document = {
    ...metadata,
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: discovery.dpop_signing_alg_values_supported,
    dpop_bound_access_tokens_required: false,
  };
  for (const path of [
    '/.well-known/oauth-protected-resource',
    `/.well-known/oauth-protected-resource${resource.pathname}`,
  ]) {
    routes.options(
      path,
      (c) =>
        new Response(null, {
          status: 204,
          headers: cors.preflightFor(c.req.header('origin'), 'GET, OPTIONS'),
        }),
    );
    routes.get(path, (c) => {
      for (const [name, value] of Object.entries(cors.headersFor(c.req.header('origin'))))
        c.header(name, value);
      c.header('cache-control', 'public, max-age=3600');
      return c.json(document);
    });
  }
  return routes;
}
