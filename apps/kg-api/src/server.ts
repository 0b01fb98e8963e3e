import {
  ConfigError,
  type Logger,
  resolveApiKeys,
  type ServiceStartOptions,
  ServiceStartup,
} from '@dcg/http-kit';
import {
  importMissingGraphs,
  KnowledgeBase,
  resolveUpstreamHeaders,
  SourceIngestion,
} from '@dcg/knowledge-graph';
import {
  FileGraphPersistence,
  PostgresGraphPersistence,
  rdfInWorker,
} from '@dcg/knowledge-graph/node';
import { openPostgres } from '@dcg/storage';
import type pg from 'pg';
import type { z } from 'zod';
import { buildKgApp } from './app';
import { type KgApiConfig, KgApiConfigSchema } from './config';
import {
  DEMO_LOOPBACK_SOURCE_ID,
  DEMO_SOURCE,
  demoLoopbackSource,
  loadDemoVocabulary,
} from './demo';
import { refreshSharedGraphs } from './graph-refresh';
import { IngestMetrics } from './ingest-metrics';
import { scheduleIngestion } from './scheduler';

/**
 * Options of {@link startKgApi}: ingested graphs live in `<dataDir>/graphs`; `databaseUrl`
 * overrides `storage.postgres.url`.
 */
export interface StartKgApiOptions
  extends ServiceStartOptions<z.input<typeof KgApiConfigSchema> | KgApiConfig> {
  /** The configuration (required: the sources are the kg-api's own). */
  config: z.input<typeof KgApiConfigSchema> | KgApiConfig;
  /** Adds the demo source (unless configured) and ingests the demo vocabulary. */
  demo?: boolean;
  /**
   * Adds the passthrough source `demo-loopback`, whose SPARQL endpoint is this kg-api's own
   * internal one (see {@link demoLoopbackSource}): the embedded demo's passthrough, which
   * `main.ts` asks for with `DCG_DEMO=1` and no configuration file. Needs open reads.
   */
  demoLoopback?: boolean;
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
  const startup = new ServiceStartup('kg-api', options);
  const { logger, env, cleanup } = startup;
  const parsed = startup.config(KgApiConfigSchema);
  const loopback = options.demoLoopback ? demoLoopbackSource() : undefined;
  const config: KgApiConfig = {
    ...parsed,
    sources: [
      ...parsed.sources,
      ...(options.demo && !parsed.sources.some((s) => s.id === DEMO_SOURCE.id)
        ? [DEMO_SOURCE]
        : []),
      ...(loopback ? [loopback.source] : []),
    ],
  };
  if (loopback) refuseLoopbackConflicts(parsed);
  const { keys: apiKeys, developmentKey } = resolveApiKeys(config.auth.apiKeys, {
    env,
    developmentRole: config.auth.developmentKey ? 'writer' : undefined,
    exampleRole: 'writer',
  });
  // Upstream secrets are read once, now: a missing one stops start-up, named (never its value).
  const credentials = resolveUpstreamHeaders(config.sources, env);
  if (!credentials.success) throw invalidConfiguration(credentials.issues);

  // On PostgreSQL, the graphs and rate limits are kept there, for every instance on the database.
  const postgresUrl = options.databaseUrl ?? config.storage.postgres.url;
  // The process's one pool for this database (@dcg/storage), shared by the graphs and the limits.
  const postgres = postgresUrl
    ? openPostgres({
        connectionString: postgresUrl,
        schema: config.storage.postgres.schema,
        maxConnections: config.storage.postgres.maxConnections,
      })
    : undefined;
  const pool = postgres?.pool;
  if (postgres) cleanup.defer(() => postgres.close());
  const { kb, persistence } = await cleanup.orUnwind(
    openKnowledgeBase(config, options.dataDir, pool, logger),
  );
  if (options.demo) {
    const { triples } = await loadDemoVocabulary(kb);
    logger.info('demo vocabulary ingested', { sourceId: DEMO_SOURCE.id, triples });
  }
  const rdfParse = {
    // JSON-LD, RDF/XML and very long-lined Turtle are parsed off the event loop.
    convert: rdfInWorker({
      maxHeapMb: config.ingestion.jsonLdWorkerHeapMb,
      timeoutMs: config.ingestion.jsonLdTimeoutMs,
    }),
    maxJsonDepth: config.ingestion.maxJsonLdDepth,
    maxXmlDepth: config.ingestion.maxRdfXmlDepth,
  };
  const ingestion = new SourceIngestion(
    kb,
    {
      timeoutMs: config.ingestion.pullTimeoutMs,
      maxBytes: config.ingestion.maxUploadBytes,
      parse: rdfParse,
      upstreamHeaders: credentials.headers,
    },
    logger,
  );
  const sharedLimits = await startup.sharedLimits(pool, {
    schema: config.storage.postgres.schema,
    timeoutMs: config.rateLimit.sharedStoreTimeoutMs,
  });
  const { metrics } = startup;
  const ingestMetrics = new IngestMetrics(metrics, () => kb.sources().map((s) => s.id));
  const app = buildKgApp({
    metrics,
    ingestMetrics,
    config,
    lifecycle: startup.lifecycle,
    kb,
    apiKeys,
    ingestion,
    rdfParse,
    upstreamHeaders: credentials.headers,
    logger,
    storageWritable: () => persistence.writable(),
    sharedLimits,
  });
  const server = await startup.listen(app, config.server);
  if (loopback) {
    loopback.pointAt(server.url);
    logger.info('demo passthrough source (in production: a real upstream)', {
      sourceId: loopback.source.id,
      sparqlEndpoint: loopback.source.sparqlEndpoint,
    });
  }
  const stopSchedule = scheduleIngestion(
    config.sources,
    {
      pull: (sourceId) =>
        ingestMetrics.track(sourceId, 'scheduled_pull', () => ingestion.pull(sourceId)),
    },
    logger,
    (sourceId) => kb.graphInfo(sourceId).triples > 0,
  );
  cleanup.defer(refreshSharedGraphs(kb, config.storage.graphRefreshMs, logger));
  cleanup.defer(stopSchedule);
  return {
    url: server.url,
    port: server.port,
    ...(developmentKey ? { developmentKey } : {}),
    close: () => startup.close(),
  };
}

/** The knowledge base on PostgreSQL (with a pool) or in the data folder, its loads logged. */
async function openKnowledgeBase(
  config: KgApiConfig,
  dataDir: string,
  pool: pg.Pool | undefined,
  logger: Logger,
) {
  const files = new FileGraphPersistence(dataDir);
  const persistence = pool
    ? await PostgresGraphPersistence.open({ pool, schema: config.storage.postgres.schema })
    : files;
  if (persistence !== files) {
    // The first start on PostgreSQL: the graphs of the data folder move there.
    const sourceIds = config.sources.map((s) => s.id);
    for (const sourceId of await importMissingGraphs(files, persistence, sourceIds))
      logger.info('graph copied from the data folder to PostgreSQL', { sourceId });
  }
  const kb = await KnowledgeBase.open({
    sources: config.sources,
    search: config.search,
    persistence,
    maxGraphBytes: config.ingestion.maxGraphBytes,
    onRemovedOrphan: (sourceId) =>
      logger.info('removed the graph of a source no longer configured', { sourceId }),
    onGraphLoaded: (event) => logger.info('graph loaded', { ...event }),
    onSnapshotRefused: (sourceId, reason) =>
      logger.warn('graph snapshot refused', { sourceId, reason }),
  });
  return { kb, persistence };
}

// The loopback source calls the internal endpoint without credentials, under its own id.
function refuseLoopbackConflicts(config: KgApiConfig): void {
  const issues = [
    ...(config.auth.readsRequireKey
      ? [{ key: 'auth.readsRequireKey', message: 'the demo loopback source reads without a key' }]
      : []),
    ...(config.sources.some((s) => s.id === DEMO_LOOPBACK_SOURCE_ID)
      ? [{ key: 'sources', message: `"${DEMO_LOOPBACK_SOURCE_ID}" is the demo's own source id` }]
      : []),
  ];
  if (issues.length > 0) throw invalidConfiguration(issues);
}

function invalidConfiguration(issues: Array<{ key: string; message: string }>): ConfigError {
  return new ConfigError(
    `Invalid configuration:\n${issues.map((i) => `  - ${i.key}: ${i.message}`).join('\n')}`,
    issues,
  );
}
