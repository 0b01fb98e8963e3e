import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  createLogger,
  END_USER_HEADER,
  isProduction,
  type Logger,
  openSharedLimits,
  packageVersion,
  parseConfig,
  ServiceLifecycle,
  ServiceMetrics,
  type SharedLimits,
  startHttpServer,
} from '@dcg/http-kit';
import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { createDcgMcpServer, type DcgMcpDeps, SCOPES } from '@dcg/mcp-tools';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  localhostAllowedHostnames,
  type McpServer,
} from '@modelcontextprotocol/server';
import type Provider from 'oidc-provider';
import type { z } from 'zod';
import { buildMcpApp } from './app';
import { authorizationServerRoutes, countOAuthErrors } from './authorization-server-routes';
import { type McpServerConfig, McpServerConfigSchema, resolveSecret } from './config';
import { corsPolicy } from './cors';
import { toolCallMetrics } from './mcp-metrics';
import { createAuthorizationServer, publicJwks } from './oauth/authorization-server';
import { authorizationServerPaths, readDiscoveryDocument } from './oauth/discovery-document';
import {
  type FailureThrottle,
  failureThrottle,
  sharedFailureThrottle,
} from './oauth/failure-throttle';
import { interactionRoutes } from './oauth/interaction-routes';
import { metadataDocumentFetch } from './oauth/metadata-document-fetch';
import type { OAuthStore } from './oauth/oauth-store';
import { hashPassword } from './oauth/passwords';
import { openPostgresOAuthStore } from './oauth/postgres-oauth-store';
import { createResourceGate } from './oauth/resource-gate';
import { loadSigningKeys } from './oauth/signing-keys';
import { openSqliteOAuthStore } from './oauth/sqlite-oauth-store';
import { tokenEndpointThrottle } from './oauth/token-endpoint-throttle';
import { createTokenVerifier } from './oauth/token-verifier';
import { upstreamOidc } from './oauth/upstream-oidc';
import { registrationRateLimit } from './registration-rate-limit';

/**
 * Options of {@link startMcpServer}.
 *
 * @example
 * const options: StartMcpServerOptions = { dataDir: '/tmp/mcp', port: 0 };
 */
export interface StartMcpServerOptions {
  /** The configuration (validated here; see the README for every key). Default: all defaults. */
  config?: z.input<typeof McpServerConfigSchema> | McpServerConfig;
  /** Data folder: `oauth.db` (clients, grants, tokens) and `oauth-keys.json` (signing keys). */
  dataDir: string;
  /** PostgreSQL connection string; when set, the OAuth store and keys live there instead. */
  databaseUrl?: string | undefined;
  port?: number;
  host?: string;
  /** Adds the user `demo` with a random password (returned) when no user is configured. */
  demo?: boolean;
  logger?: Logger;
  env?: Record<string, string | undefined>;
  /** Registers more tools, resources or prompts on every server instance (e.g. a deployment's own). */
  extendServer?: (server: McpServer) => void;
  /** Prometheus metrics (default: a registry of this instance with the process metrics). */
  metrics?: ServiceMetrics;
}

/** A running mcp-server. */
export interface RunningMcpServer {
  /** The Hono app behind everything but the authorization server (for `app.request()` in tests). */
  app: ReturnType<typeof buildMcpApp>;
  /** Where it listens. */
  url: string;
  /** The MCP endpoint clients use (`<publicUrl>/mcp`). */
  mcpUrl: string;
  port: number;
  /** The demo user, when `demo` made one. */
  demoUser?: { username: string; password: string };
  /** The OAuth store (for tests and tools). */
  store?: OAuthStore;
  provider?: Provider;
  close(): Promise<void>;
}

/**
 * Starts mcp-server in-process: MCP over Streamable HTTP at `/mcp` (2026-07-28 natively, the
 * 2025-11-25 and 2025-06-18 clients through the SDK's stateless legacy lane), behind its own
 * OAuth 2.1 authorization server (oidc-provider, SQLite in the data folder).
 *
 * @example
 * const server = await startMcpServer({ dataDir: '/tmp/mcp', port: 0, demo: true });
 * console.log(server.mcpUrl, server.demoUser);
 * await server.close();
 */
export async function startMcpServer(options: StartMcpServerOptions): Promise<RunningMcpServer> {
  const logger = options.logger ?? createLogger('mcp-server');
  const env = options.env ?? process.env;
  const config = parseConfig(
    McpServerConfigSchema,
    options.config ?? {},
    'mcp-server configuration',
  );
  const host = options.host ?? '127.0.0.1';
  const production = isProduction(env);
  if (!config.oauth.enabled) {
    if (production && !config.oauth.behindAuthorizationLayer) {
      const message =
        'OAuth is disabled (oauth.enabled: false) in production: /mcp would answer anyone. Enable it, or set oauth.behindAuthorizationLayer: true if a gateway in front of this server authorizes every request';
      throw new ConfigError(`Invalid mcp-server configuration:\n  - oauth.enabled: ${message}`, [
        { key: 'oauth.enabled', message },
      ]);
    }
    logger.warn(
      config.oauth.behindAuthorizationLayer
        ? 'OAUTH IS DISABLED: /mcp answers without a token; oauth.behindAuthorizationLayer says a layer in front of this server authorizes every request'
        : 'OAUTH IS DISABLED: /mcp answers without a token (development only; refused in production)',
    );
  }

  // Listens first (the issuer and resource follow the port); answers 503 until the app is built.
  const lifecycle = new ServiceLifecycle();
  let fetchApp: (request: Request, ...rest: never[]) => Response | Promise<Response> = () =>
    new Response(null, { status: 503, headers: { 'retry-after': '1' } });
  const server = await startHttpServer(
    { fetch: (request, ...rest) => fetchApp(request, ...rest) },
    { port: options.port ?? 0, host, limits: config.server, lifecycle },
  );
  const { port } = server;
  const url = server.url;
  const publicUrl = (config.publicUrl ?? url).replace(/\/+$/, '');
  const resource = new URL(`${publicUrl}/mcp`);
  const issuer = new URL(publicUrl).origin;
  // Closed in reverse order, after the HTTP server drained (in-flight calls finish first).
  const closers: (() => Promise<void> | void)[] = [];
  const close = async () => {
    await server.close();
    for (const closer of closers.reverse()) await closer();
  };

  const endUsers = new AsyncLocalStorage<string>();
  try {
    const metrics = options.metrics ?? new ServiceMetrics({ service: 'mcp-server' });
    metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
    const deps: DcgMcpDeps = {
      observeToolCall: toolCallMetrics(metrics),
      marketplace: createMarketplaceClient({
        baseUrl: config.governance.baseUrl,
        apiKey: resolveSecret(config.governance.apiKey, env),
        timeoutMs: config.governance.timeoutMs,
      }),
      kg: createKgClient({
        baseUrl: config.knowledgeGraph.baseUrl,
        apiKey: resolveSecret(config.knowledgeGraph.apiKey, env),
        timeoutMs: config.knowledgeGraph.timeoutMs,
        // Names the user a call is made for: kg-api limits each user apart when this server's
        // key is trusted for it (`endUsers`), instead of all users sharing one bucket.
        fetch: (input, init) => {
          const user = endUsers.getStore();
          if (user === undefined) return fetch(input, init);
          const request = new Request(input, init);
          request.headers.set(END_USER_HEADER, user);
          return fetch(request);
        },
      }),
      limits: config.limits,
      cacheHints: {
        staticLists: { ttlMs: config.cache.staticListsTtlMs, cacheScope: 'public' },
        marketplaceData: { ttlMs: config.cache.marketplaceDataTtlMs, cacheScope: 'private' },
      },
    };
    const handler = createMcpHandler(
      () => {
        const mcp = createDcgMcpServer(deps);
        options.extendServer?.(mcp);
        return mcp;
      },
      {
        maxRequestBodySize: config.limits.maxRequestBytes,
        onerror: (error) => logger.debug('mcp request refused or failed', { error: error.message }),
      },
    );
    closers.push(() => handler.close());
    // Every tool call of a request runs as its user (the token's subject, URL-encoded).
    const mcpHandler: typeof handler = {
      ...handler,
      fetch: (request, requestOptions) => {
        const subject = requestOptions?.authInfo?.extra?.subject;
        return typeof subject === 'string'
          ? endUsers.run(encodeURIComponent(subject), () => handler.fetch(request, requestOptions))
          : handler.fetch(request, requestOptions);
      },
    };
    const cors = corsPolicy(config.cors.origin);

    let demoUser: RunningMcpServer['demoUser'];
    let provider: Provider | undefined;
    let store: OAuthStore | undefined;
    let auth: Parameters<typeof buildMcpApp>[0]['auth'];
    let asPaths: readonly string[] = [];
    let browserPaths: string[] = [];
    let tokenPath: string | undefined;
    let sharedLimits: SharedLimits | undefined;
    let loginThrottle: FailureThrottle | undefined;
    let clientSecretThrottle: FailureThrottle | undefined;
    const extras = [];
    if (config.oauth.enabled) {
      mkdirSync(options.dataDir, { recursive: true });
      let users = config.oauth.users;
      if (options.demo && production) {
        logger.warn(
          'production (NODE_ENV is not development or test): no demo user is created or accepted',
          { NODE_ENV: env.NODE_ENV },
        );
      } else if (options.demo && users.length === 0 && !config.oauth.upstream) {
        demoUser = { username: 'demo', password: randomBytes(9).toString('base64url') };
        users = [
          { username: demoUser.username, passwordHash: await hashPassword(demoUser.password) },
        ];
      }
      const postgresUrl = options.databaseUrl ?? config.storage.postgres.url;
      const postgresStore = postgresUrl
        ? await openPostgresOAuthStore({
            connectionString: postgresUrl,
            schema: config.storage.postgres.schema,
            maxConnections: config.storage.postgres.maxConnections,
          })
        : undefined;
      const openedStore =
        postgresStore ??
        openSqliteOAuthStore(
          config.storage.sqlite.file ?? join(options.dataDir, 'oauth.db'),
          join(options.dataDir, 'oauth-keys.json'),
        );
      store = openedStore;
      closers.push(() => openedStore.close());
      // On PostgreSQL, rate limits and sign-in back-off are counted there, for every instance.
      if (postgresStore) {
        sharedLimits = await openSharedLimits({
          pool: postgresStore.pool,
          schema: config.storage.postgres.schema,
          timeoutMs: config.rateLimit.sharedStoreTimeoutMs,
        });
      }
      const backOff = (name: string): FailureThrottle =>
        sharedLimits ? sharedFailureThrottle(sharedLimits, name) : failureThrottle();
      loginThrottle = backOff('login');
      clientSecretThrottle = backOff('client-secret');
      const keys = await loadSigningKeys(openedStore.keys, {
        rotationDays: config.oauth.signingKeyRotationDays,
        retainSeconds: config.oauth.accessTokenTtlSeconds,
      });
      const fetchSettings = config.oauth.clientIdMetadataDocumentFetch;
      if (fetchSettings.allowLoopbackForTests) {
        logger.warn('client id metadata documents may be fetched from loopback (tests only)');
      }
      const createdProvider = createAuthorizationServer({
        issuer,
        resource: resource.href,
        oauth: config.oauth,
        store: openedStore,
        keys,
        fetch: metadataDocumentFetch(fetchSettings, env),
      });
      provider = createdProvider;
      const verifier = createTokenVerifier({
        issuer,
        resource: resource.href,
        publicJwks: publicJwks(keys),
        store: openedStore,
      });
      // What the authorization server offers is what oidc-provider says it offers.
      const discovery = await readDiscoveryDocument(createdProvider);
      asPaths = authorizationServerPaths(discovery).paths;
      const pathOf = (url: unknown) => (typeof url === 'string' ? new URL(url).pathname : '');
      tokenPath = pathOf(discovery.token_endpoint);
      browserPaths = [
        pathOf(discovery.authorization_endpoint),
        pathOf(discovery.end_session_endpoint),
      ].filter(Boolean);
      const loopbackAliases = loopbackOrigins(publicUrl);
      auth = {
        gate: createResourceGate({
          verifier,
          resource,
          resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
          // On loopback a client may name the server under any of its loopback names.
          targets: loopbackAliases
            ? loopbackAliases.map((origin) => `${origin}${resource.pathname}`)
            : [resource.href],
          claim: (id, expiresAt) => openedStore.claimOnce('DPoPProof', id, expiresAt),
        }),
        authorizationServer: discovery,
        // The resource's own scopes: offline_access is the authorization server's business.
        scopesSupported: Object.values(SCOPES),
        resourceMetadata: {
          dpop_signing_alg_values_supported: discovery.dpop_signing_alg_values_supported,
          dpop_bound_access_tokens_required: false,
        },
      };
      const upstream = config.oauth.upstream
        ? upstreamOidc({
            settings: {
              ...config.oauth.upstream,
              clientSecret: resolveSecret(config.oauth.upstream.clientSecret, env),
            },
            provider: () => createdProvider,
            store: openedStore,
            issuer,
          })
        : undefined;
      if (upstream) extras.push(upstream.routes);
      extras.push(
        interactionRoutes({
          provider: () => createdProvider,
          users,
          csrfKey: keys.cookieKeys[0]!,
          origin: issuer,
          upstream,
          ...(loginThrottle ? { throttle: loginThrottle } : {}),
          metrics,
        }),
      );
      const sweeper = setInterval(
        () => {
          const before =
            Math.floor(Date.now() / 1000) - config.oauth.dynamicRegistration.unusedClientTtlSeconds;
          Promise.all([openedStore.removeUnusedClients(before), openedStore.sweep()]).catch(
            (error) => logger.warn('OAuth store sweep failed', { error }),
          );
        },
        Math.min(3_600_000, config.oauth.dynamicRegistration.unusedClientTtlSeconds * 250),
      );
      sweeper.unref();
      closers.push(() => clearInterval(sweeper));
    }

    if (provider) {
      countOAuthErrors(provider, { logger, metrics });
      extras.push(
        authorizationServerRoutes({
          provider,
          paths: asPaths,
          browserPaths,
          cors,
          registrations: registrationRateLimit(config.oauth.dynamicRegistration.perMinute),
          ...(tokenPath
            ? { token: { path: tokenPath, throttle: tokenEndpointThrottle(clientSecretThrottle) } }
            : {}),
        }),
      );
    }
    const self = new URL(publicUrl);
    const aliases = loopbackOrigins(publicUrl);
    const app = buildMcpApp({
      handler: mcpHandler,
      resource,
      cors,
      selfOrigins: aliases ?? [self.origin],
      allowedHosts: aliases ? localhostAllowedHostnames() : undefined,
      logger,
      maxRequestBytes: config.limits.maxRequestBytes,
      ...(auth ? { auth } : {}),
      extras,
      admission: config.admission,
      rateLimit: config.rateLimit,
      sharedLimits,
      lifecycle,
      metrics: {
        metrics,
        config: config.metrics,
        keys: config.metricsKeys.map((entry) => ({
          name: entry.name,
          role: 'metrics',
          key: resolveSecret(entry, env) as string,
        })),
      },
    });
    fetchApp = app.fetch as typeof fetchApp;

    return {
      app,
      url,
      mcpUrl: resource.href,
      port,
      ...(demoUser ? { demoUser } : {}),
      ...(store ? { store } : {}),
      ...(provider ? { provider } : {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The origins of a loopback server under each of the SDK's loopback host names (`localhost`,
 * `127.0.0.1`, `[::1]`) on its port; undefined for a server that is not on loopback. Exact origins,
 * not the SDK's port-agnostic Origin check: another program on another local port is not us.
 */
function loopbackOrigins(publicUrl: string): string[] | undefined {
  const self = new URL(publicUrl);
  const hostnames = localhostAllowedHostnames();
  if (!hostnames.includes(self.hostname)) return undefined;
  return hostnames.map(
    (hostname) => `${self.protocol}//${hostname}${self.port ? `:${self.port}` : ''}`,
  );
}
