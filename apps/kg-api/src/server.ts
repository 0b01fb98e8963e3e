import {
  createLogger,
  type Logger,
  parseConfig,
  resolveApiKeys,
  ServiceLifecycle,
  ServiceMetrics,
  startHttpServer,
} from '@dcg/http-kit';
import { KnowledgeBase, SourceIngestion } from '@dcg/knowledge-graph';
import { FileGraphPersistence, jsonLdInWorker } from '@dcg/knowledge-graph/node';
import type { z } from 'zod';
import { buildKgApp } from './app';
import { type KgApiConfig, KgApiConfigSchema } from './config';
import { DEMO_SOURCE, loadDemoVocabulary } from './demo';
import { scheduleIngestion } from './scheduler';

/** Options of {@link startKgApi}. */
export interface StartKgApiOptions {
  /** The configuration (validated here; see the README for every key). */
  config: z.input<typeof KgApiConfigSchema> | KgApiConfig;
  /** Data folder: ingested graphs live in `<dataDir>/graphs`. */
  dataDir: string;
  /** Port (0 or absent: a free port). */
  port?: number;
  /** Host (default 127.0.0.1). */
  host?: string;
  /** Adds the demo source (unless configured) and ingests the demo vocabulary. */
  demo?: boolean;
  logger?: Logger;
  /** Environment for `keyFromEnv` API keys and `NODE_ENV` (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** A running kg-api. */
export interface RunningKgApi {
  url: string;
  port: number;
  /** A random writer key, made when no key is configured and `auth.developmentKey` is on. */
  developmentKey?: string;
  close(): Promise<void>;
}

/**
 * Starts kg-api in-process: validates the configuration, opens the knowledge base in `dataDir`
 * (removing graphs of sources no longer configured), schedules pulls, and listens.
 *
 * @example
 * const api = await startKgApi({ config: { sources: [...] }, dataDir: '/tmp/kg', port: 0 });
 * await fetch(`${api.url}/v1/search/query?term=water`);
 * await api.close();
 */
export async function startKgApi(options: StartKgApiOptions): Promise<RunningKgApi> {
  const logger = options.logger ?? createLogger('kg-api');
  const parsed = parseConfig(KgApiConfigSchema, options.config, 'kg-api configuration');
  const config: KgApiConfig =
    options.demo && !parsed.sources.some((s) => s.id === DEMO_SOURCE.id)
      ? { ...parsed, sources: [...parsed.sources, DEMO_SOURCE] }
      : parsed;
  const { keys: apiKeys, developmentKey } = resolveApiKeys(config.auth.apiKeys, {
    env: options.env ?? process.env,
    developmentRole: config.auth.developmentKey ? 'writer' : undefined,
    exampleRole: 'writer',
  });

  const persistence = new FileGraphPersistence(options.dataDir);
  const kb = await KnowledgeBase.open({
    sources: config.sources,
    search: config.search,
    persistence,
    onRemovedOrphan: (sourceId) =>
      logger.info('removed the graph of a source no longer configured', { sourceId }),
  });
  if (options.demo) {
    const { triples } = await loadDemoVocabulary(kb);
    logger.info('demo vocabulary ingested', { sourceId: DEMO_SOURCE.id, triples });
  }
  const rdfParse = {
    jsonLd: jsonLdInWorker({ maxHeapMb: config.ingestion.jsonLdWorkerHeapMb }),
    maxJsonDepth: config.ingestion.maxJsonLdDepth,
  };
  const ingestion = new SourceIngestion(
    kb,
    {
      timeoutMs: config.ingestion.pullTimeoutMs,
      maxBytes: config.ingestion.maxUploadBytes,
      parse: rdfParse,
    },
    logger,
  );
  const lifecycle = new ServiceLifecycle();
  const metrics = new ServiceMetrics({ service: 'kg-api' });
  metrics.gauge(
    'kg_storage_writable',
    'Acknowledged graphs can be stored now (1) or not (0)',
    [],
    async () => ((await persistence.writable()) ? 1 : 0),
  );
  metrics.gauge('kg_triples', 'Triples in the knowledge base', [], () => kb.size);
  metrics.gauge('kg_sources', 'Configured sources', [], () => kb.sources().length);
  metrics.gauge(
    'kg_pulls_running',
    'Pulls from upstream sources in progress',
    [],
    () => ingestion.running,
  );
  const app = buildKgApp({
    metrics,
    config,
    lifecycle,
    kb,
    apiKeys,
    ingestion,
    rdfParse,
    logger,
    storageWritable: () => persistence.writable(),
  });
  const server = await startHttpServer(app, {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    limits: config.server,
    lifecycle,
  });
  const stopSchedule = scheduleIngestion(
    config.sources,
    ingestion,
    logger,
    (sourceId) => kb.graphInfo(sourceId).triples > 0,
  );
  return {
    url: server.url,
    port: server.port,
    ...(developmentKey ? { developmentKey } : {}),
    // Graceful: /ready answers 503, no new connection, in-flight requests finish (at most
    // `server.shutdownTimeoutMs`).
    close: async () => {
      stopSchedule();
      await server.close();
    },
  };
}
