import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGovernance, type Governance, type GovernanceStore } from '@dcg/governance';
import { openPostgresStore } from '@dcg/governance/postgres';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { resolveApiKeys, type ServiceStartOptions, ServiceStartup } from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';
import type { z } from 'zod';
import { buildGovernanceApp } from './app';
import { type GovernanceApiConfig, GovernanceApiConfigSchema } from './config';
import { demoGuardianKey, seedDemo } from './demo';
import { demoTechAdapter } from './demo-tech-adapter';
import { openMarketplaceSearch } from './marketplace-search-setup';

/**
 * Options of {@link startGovernanceApi}: the SQLite database lives in `<dataDir>/governance.db`
 * unless `databaseUrl` is set; `demo` seeds a template, a deployed system and one result in each
 * state.
 *
 * @example
 * const options: StartGovernanceApiOptions = { dataDir: '/tmp/gov', port: 0 };
 */
export interface StartGovernanceApiOptions
  extends ServiceStartOptions<z.input<typeof GovernanceApiConfigSchema> | GovernanceApiConfig> {
  /**
   * The development key (when no key is configured, outside production) instead of a random one:
   * `pnpm start` gives governance-api and mcp-server the same one.
   */
  developmentKey?: string | undefined;
}

/**
 * A running governance-api.
 *
 * @example
 * const api = await startGovernanceApi({ dataDir: '/tmp/gov' });
 * await api.close();
 */
export interface RunningGovernanceApi {
  url: string;
  port: number;
  governance: Governance;
  /** The marketplace embeddings and hybrid search. */
  marketplaceSearch: MarketplaceSearch;
  /** The development key, when one was generated (no key configured). */
  developmentKey?: string;
  close(): Promise<void>;
}

async function openStore(
  config: GovernanceApiConfig,
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<GovernanceStore | Awaited<ReturnType<typeof openPostgresStore>>> {
  const url = databaseUrl ?? config.storage.postgres.url;
  if (url) {
    return openPostgresStore({
      connectionString: url,
      schema: config.storage.postgres.schema,
      maxConnections: config.storage.postgres.maxConnections,
    });
  }
  mkdirSync(dataDir, { recursive: true });
  return openSqliteStore({
    file: config.storage.sqlite.file ?? join(dataDir, 'governance.db'),
    synchronous: config.storage.sqlite.synchronous,
  });
}

/**
 * Starts governance-api in-process: validates the configuration, opens the store (SQLite in
 * `dataDir`, or PostgreSQL with `databaseUrl`) and runs its migrations, marks plans interrupted by
 * an earlier stop, listens, and seeds the demo when asked.
 *
 * @example
 * const api = await startGovernanceApi({ dataDir: '/tmp/gov', port: 0, demo: true });
 * const res = await fetch(`${api.url}/v1/marketplace/instances`);
 * await api.close();
 */
export async function startGovernanceApi(
  options: StartGovernanceApiOptions,
): Promise<RunningGovernanceApi> {
  const startup = new ServiceStartup('governance-api', options);
  const { logger, env, cleanup } = startup;
  const config = startup.config(GovernanceApiConfigSchema);
  // The demo's guardian key is a credential anyone with the data folder holds: never in production.
  const demoCredentials = options.demo === true && !startup.production;
  if (options.demo && startup.production) {
    logger.warn(
      'production (NODE_ENV is not development or test): the demo guardian key is neither written nor accepted',
      { NODE_ENV: env.NODE_ENV },
    );
  }
  const { keys: apiKeys, developmentKey } = resolveApiKeys(config.auth.apiKeys, {
    env,
    developmentRole: config.auth.developmentKey ? 'platform-admin' : undefined,
    developmentKey: options.developmentKey,
    exampleRole: 'platform-admin',
  });

  const store = await openStore(config, options.dataDir, options.databaseUrl);
  cleanup.defer(() => store.close());
  // On PostgreSQL, the rate limits are counted there, for every instance on the database.
  const sharedLimits = await startup.sharedLimits('pool' in store ? store.pool : undefined, {
    schema: config.storage.postgres.schema,
    timeoutMs: config.rateLimit.sharedStoreTimeoutMs,
  });
  const { leaseMs, ...adapters } = config.provisioning;
  const governance = createGovernance(store, {
    // A SQLite file has one process (this one): under one fixed id, what a killed process left
    // running is this instance's own and is marked failed at start-up at once (see PlanLeases).
    // Instances sharing PostgreSQL each take a new id and wait for a dead one's lease to lapse.
    ...(store.kind === 'sqlite' ? { instanceId: 'sqlite' } : {}),
    adapters,
    results: config.evaluationResults,
    leases: {
      leaseMs,
      onError: (error) => logger.error('plan lease renewal failed', { error }),
    },
    descriptorLimits: {
      maxDepth: config.limits.maxDepth,
      maxExpandedBytes: config.limits.maxExpandedBytes,
    },
    onListenerError: (error, event) => logger.error('event listener failed', { event, error }),
  });
  governance.events.on('system.deployed', (e) =>
    logger.info('system deployed', {
      systemId: e.systemId,
      environment: e.environment,
      planId: e.planId,
    }),
  );
  governance.events.on('system.undeployed', (e) =>
    logger.info('system undeployed', {
      systemId: e.systemId,
      environment: e.environment,
      planId: e.planId,
    }),
  );
  // Takes this instance's lease and marks failed the plans of instances that are gone (only
  // theirs: instances sharing the database keep their plans), then keeps doing so while it runs.
  const interrupted = await cleanup.orUnwind(governance.leases.start());
  cleanup.defer(() => governance.leases.stop());
  if (interrupted > 0)
    logger.warn('plans interrupted by an earlier stop were marked failed', { count: interrupted });

  const marketplaceSearch = await cleanup.orUnwind(
    openMarketplaceSearch({
      config,
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      governance,
      logger,
      env,
    }),
  );
  cleanup.defer(() => marketplaceSearch.close());
  const app = buildGovernanceApp({
    // The app registers the governance metrics on the start-up's (which has the process metrics).
    metrics: startup.metrics,
    metricsConfig: config.metrics,
    governance,
    // Demo: a guardian key for the reference guardian that `pnpm start` runs beside this app.
    apiKeys: demoCredentials ? [...apiKeys, demoGuardianKey(options.dataDir)] : apiKeys,
    logger,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxDepth: config.limits.maxDepth,
    maxPageBytes: config.limits.maxPageBytes,
    maxEventStreamsPerKey: config.limits.maxEventStreamsPerKey,
    admission: config.admission,
    rateLimit: config.rateLimit,
    sharedLimits,
    lifecycle: startup.lifecycle,
    marketplaceSearch: marketplaceSearch.search,
    ...(options.demo ? { extras: [demoTechAdapter()] } : {}),
  });
  // On close, after the server stopped (see `listen`): the plans in progress finish.
  cleanup.defer(() => governance.coordinator.idle());
  const server = await startup.listen(app, config.server);
  if (options.demo) await cleanup.orUnwind(seedDemo(governance, server.url, logger));
  return {
    url: server.url,
    port: server.port,
    governance,
    ...(developmentKey ? { developmentKey } : {}),
    marketplaceSearch: marketplaceSearch.search,
    close: () => startup.close(),
  };
}
