import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  packageVersion,
  type ServiceStartOptions,
  ServiceStartup,
  type SharedLimits,
} from '@dcg/http-kit';
import { localhostAllowedHostnames, type McpServer } from '@modelcontextprotocol/server';
import type Provider from 'oidc-provider';
import type pg from 'pg';
import type { z } from 'zod';
import { buildMcpApp } from './app';
import { type McpServerConfig, McpServerConfigSchema, resolveSecret } from './config';
import { corsPolicy } from './cors';
import { loopbackOrigins } from './loopback-origins';
import type { OAuthStore } from './oauth/oauth-store';
import { openPostgresOAuthStore } from './oauth/postgres-oauth-store';
import { openSqliteOAuthStore } from './oauth/sqlite-oauth-store';
import { createOAuth, type OAuth } from './oauth-app';
import { createToolsHandler } from './tools-handler';

/**
 * Options of {@link startMcpServer}: `dataDir` holds `oauth.db` (clients, grants, tokens) and
 * `oauth-keys.json` (signing keys) unless `databaseUrl` is set; `demo` adds the user `demo` with a
 * random password (returned) when no user is configured.
 *
 * @example
 * const options: StartMcpServerOptions = { dataDir: '/tmp/mcp', port: 0 };
 */
export interface StartMcpServerOptions
  extends ServiceStartOptions<z.input<typeof McpServerConfigSchema> | McpServerConfig> {
  /** Registers more tools, resources or prompts on every server instance (e.g. a deployment's own). */
  extendServer?: (server: McpServer) => void;
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
  const setup = mcpServerSetup(options);
  // Listens first (the issuer and resource follow the port); answers 503 until the app is built.
  // Closing stops the server before the rest (the start-up's cleanup), in-flight calls first.
  let fetchApp: (request: Request, ...rest: never[]) => Response | Promise<Response> = () =>
    new Response(null, { status: 503, headers: { 'retry-after': '1' } });
  const server = await setup.startup.listen(
    { fetch: (request, ...rest) => fetchApp(request, ...rest) },
    setup.config.server,
  );
  const built = await assembleMcpServer(setup, server.url);
  fetchApp = built.app.fetch as typeof fetchApp;
  return { ...built, url: server.url, port: server.port };
}

/** mcp-server built without listening, by {@link buildMcpServer}. */
export type BuiltMcpServer = Omit<RunningMcpServer, 'url' | 'port'>;

/**
 * Builds mcp-server's app as {@link startMcpServer} does, without listening: for tests that run it
 * in process (`url` is where its clients are told it is, unless `publicUrl` is configured).
 *
 * @example
 * const built = await buildMcpServer({ dataDir: '/tmp/mcp', url: 'http://127.0.0.1:8082', demo: true });
 * const response = await built.app.request('/health');
 */
export async function buildMcpServer(
  options: Omit<StartMcpServerOptions, 'port' | 'host'> & { url: string },
): Promise<BuiltMcpServer> {
  return assembleMcpServer(mcpServerSetup(options), options.url);
}

/** What start and build share before the app is built: the configuration, checked. */
function mcpServerSetup(options: StartMcpServerOptions) {
  const startup = new ServiceStartup('mcp-server', options);
  const { logger, production } = startup;
  const config = startup.config(McpServerConfigSchema);
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
  return { options, startup, config };
}

/** Builds the app (tools, OAuth, storage) of a server reached at `url`. */
async function assembleMcpServer(
  setup: ReturnType<typeof mcpServerSetup>,
  url: string,
): Promise<BuiltMcpServer> {
  const { options, startup, config } = setup;
  const { logger, env, production, lifecycle, metrics, cleanup } = startup;
  const publicUrl = (config.publicUrl ?? url).replace(/\/+$/, '');
  const resource = new URL(`${publicUrl}/mcp`);
  const close = () => startup.close();
  try {
    metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
    const handler = createToolsHandler({
      config,
      env,
      metrics,
      logger,
      extendServer: options.extendServer,
    });
    cleanup.defer(() => handler.close());
    const cors = corsPolicy(config.cors.origin);

    let store: OAuthStore | undefined;
    let sharedLimits: SharedLimits | undefined;
    let oauth: OAuth | undefined;
    if (config.oauth.enabled) {
      const opened = await openOAuthStore(config, options);
      store = opened;
      cleanup.defer(() => opened.close());
      // On PostgreSQL, every instance counts the rate limits and back-offs there.
      sharedLimits = await startup.sharedLimits('pool' in opened ? opened.pool : undefined, {
        schema: config.storage.postgres.schema,
        timeoutMs: config.rateLimit.sharedStoreTimeoutMs,
      });
      oauth = await createOAuth({
        oauth: config.oauth,
        store,
        sharedLimits,
        publicUrl,
        resource,
        cors,
        logger,
        metrics,
        env,
        production,
        ...(options.demo ? { demo: true } : {}),
      });
      cleanup.defer(oauth.close);
    }
    const self = new URL(publicUrl);
    const aliases = loopbackOrigins(publicUrl);
    const app = buildMcpApp({
      handler,
      resource,
      cors,
      selfOrigins: aliases ?? [self.origin],
      allowedHosts: aliases ? localhostAllowedHostnames() : undefined,
      logger,
      maxRequestBytes: config.limits.maxRequestBytes,
      ...(oauth ? { gate: oauth.gate, routes: [oauth.routes] } : {}),
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
    return {
      app,
      mcpUrl: resource.href,
      ...(oauth?.demoUser ? { demoUser: oauth.demoUser } : {}),
      ...(store ? { store } : {}),
      ...(oauth ? { provider: oauth.provider } : {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The OAuth store: PostgreSQL when a connection string is configured, else SQLite in the data folder. */
async function openOAuthStore(
  config: McpServerConfig,
  options: Pick<StartMcpServerOptions, 'dataDir' | 'databaseUrl'>,
): Promise<OAuthStore | (OAuthStore & { readonly pool: pg.Pool })> {
  mkdirSync(options.dataDir, { recursive: true });
  const postgresUrl = options.databaseUrl ?? config.storage.postgres.url;
  if (!postgresUrl) {
    return openSqliteOAuthStore(
      config.storage.sqlite.file ?? join(options.dataDir, 'oauth.db'),
      join(options.dataDir, 'oauth-keys.json'),
    );
  }
  return openPostgresOAuthStore({
    connectionString: postgresUrl,
    schema: config.storage.postgres.schema,
    maxConnections: config.storage.postgres.maxConnections,
  });
}
