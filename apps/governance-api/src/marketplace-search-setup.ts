import { join } from 'node:path';
import type { Governance } from '@dcg/governance';
import type { Logger } from '@dcg/http-kit';
import { ConfigError } from '@dcg/http-kit';
import {
  type EmbeddingStore,
  type InstanceContracts,
  instanceContracts,
  instanceKey,
  MarketplaceSearch,
  MarketplaceSearchError,
} from '@dcg/marketplace-search';
import {
  createEmbeddingProvider,
  createWordNetThesaurus,
  openPostgresEmbeddingStore,
  openSqliteEmbeddingStore,
} from '@dcg/marketplace-search/node';
import type { GovernanceApiConfig } from './config';

/**
 * The marketplace search of a running governance-api and what closes it.
 *
 * @example
 * const { search, close } = await openMarketplaceSearch({ config, dataDir, governance, logger, env: process.env });
 */
export interface MarketplaceSearchHandle {
  search: MarketplaceSearch;
  store: EmbeddingStore;
  close(): Promise<void>;
}

/**
 * Wires the marketplace search: the provider that `embeddingsSearch` configures (a missing or
 * empty key variable stops start-up, naming the variable), the embedding store beside the
 * governance storage (`<dataDir>/embeddings.db`, or the same PostgreSQL schema), deploy and
 * undeploy events, and the compliance of instances from the marketplace read model.
 *
 * @example
 * const handle = await openMarketplaceSearch({ config, dataDir: '/tmp/gov', governance, logger, env: process.env });
 */
export async function openMarketplaceSearch(options: {
  config: GovernanceApiConfig;
  dataDir: string;
  databaseUrl: string | undefined;
  governance: Governance;
  logger: Logger;
  env: Record<string, string | undefined>;
}): Promise<MarketplaceSearchHandle> {
  const { config, governance, logger } = options;
  const settings = config.embeddingsSearch;
  let provider = null;
  if (settings.enabled) {
    try {
      provider = createEmbeddingProvider(settings.embeddingsModel, options.env);
    } catch (error) {
      if (MarketplaceSearchError.isInstance(error) && error.code === 'invalid_config') {
        throw new ConfigError(`Invalid configuration:\n  - ${error.message}`, [
          { key: error.path.join('.'), message: error.message },
        ]);
      }
      throw error;
    }
  }
  const url = options.databaseUrl ?? config.storage.postgres.url;
  const store = url
    ? await openPostgresEmbeddingStore({
        connectionString: url,
        schema: config.storage.postgres.schema,
        maxConnections: Math.min(5, config.storage.postgres.maxConnections),
      })
    : await openSqliteEmbeddingStore({ file: join(options.dataDir, 'embeddings.db') });
  const search = new MarketplaceSearch({
    store,
    provider,
    source: { listInstances: (filter) => governance.store.listInstances(filter) },
    thesaurus: createWordNetThesaurus(),
    contractsOf: async (instances) => {
      const views = await Promise.all(
        instances.map((i) => governance.marketplace.getInstance(i.systemId, i.environment)),
      );
      const out = new Map<string, InstanceContracts>();
      for (const view of views)
        if (view)
          out.set(instanceKey(view.environment, view.systemId), instanceContracts(view.components));
      return out;
    },
    ...(settings.minSimilarity === undefined
      ? {}
      : { minVectorSimilarity: settings.minSimilarity }),
    jobLeaseMs: settings.jobLeaseMs,
    retryDelayMs: settings.retryDelayMs,
    queryTimeoutMs: settings.queryTimeoutMs,
    // One process per SQLite data folder; on PostgreSQL other processes deploy too.
    refreshIntervalMs: url ? settings.refreshIntervalMs : 0,
    logger,
  });
  try {
    await search.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  // Deploys never wait for embeddings: a provider outage leaves the instance pending.
  const offDeployed = governance.events.on('system.deployed', (e) => {
    search
      .onDeployed(e.instance)
      .catch((error: unknown) =>
        logger.error('marketplace search update failed', { systemId: e.systemId, error }),
      );
  });
  const offUndeployed = governance.events.on('system.undeployed', (e) => {
    search
      .onUndeployed(e.systemId, e.environment)
      .catch((error: unknown) =>
        logger.error('marketplace search update failed', { systemId: e.systemId, error }),
      );
  });
  return {
    search,
    store,
    close: async () => {
      offDeployed();
      offUndeployed();
      await search.close();
      await store.close();
    },
  };
}
