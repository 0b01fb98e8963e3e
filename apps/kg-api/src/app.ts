import {
  installServiceFront,
  packageVersion,
  type ServiceAppDeps,
  ServiceMetrics,
  serveApiDocs,
  zodValidationHook,
} from '@dcg/http-kit';
import {
  GraphQueries,
  type KnowledgeBase,
  type ParseRdfOptions,
  type SourceIngestion,
  type UpstreamHeaders,
} from '@dcg/knowledge-graph';
import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import type { KgEnv } from './app-env';
import { authGuards } from './auth';
import type { KgApiConfig, ResolvedApiKey } from './config';
import { IngestMetrics } from './ingest-metrics';
import { kgErrorHandler } from './kg-problems';
import { mountGraphRoutes } from './routes/graph-routes';
import { mountPassthroughRoutes } from './routes/passthrough-routes';
import { mountSearchRoutes } from './routes/search-routes';
import { mountSparqlRoutes } from './routes/sparql-routes';

/** Everything the kg-api Hono app is built from. */
export interface KgAppDeps extends ServiceAppDeps {
  config: KgApiConfig;
  kb: KnowledgeBase;
  apiKeys: readonly ResolvedApiKey[];
  ingestion: SourceIngestion;
  /** How uploaded and pulled documents are parsed (the converter off the main thread, depth limits). */
  rdfParse: Pick<ParseRdfOptions, 'convert' | 'maxJsonDepth' | 'maxXmlDepth'>;
  /** Readiness: can acknowledged graphs be stored now? */
  storageWritable: () => Promise<boolean>;
  version?: string;
  /** Credentials of each source's upstream, resolved at start-up (default: none). */
  upstreamHeaders?: UpstreamHeaders;
  /** Ingest counts on `metrics` (default: made here; the server shares them with the scheduler). */
  ingestMetrics?: IngestMetrics;
}

/**
 * Builds the kg-api Hono app: search, SPARQL, sources and graphs, passthrough, health, the
 * OpenAPI document (`/openapi.json`) and its reference page (`/docs`).
 *
 * @example
 * const app = buildKgApp({ config, kb, apiKeys, ingestion, rdfParse, logger, storageWritable });
 * const server = await startHttpServer(app, { port: 0 });
 */
export function buildKgApp(deps: KgAppDeps): OpenAPIHono<KgEnv> {
  const { config, kb } = deps;
  const app = new OpenAPIHono<KgEnv>({ defaultHook: zodValidationHook });
  const metrics = deps.metrics ?? new ServiceMetrics({ service: 'kg-api', processMetrics: false });
  metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
  const ingestMetrics =
    deps.ingestMetrics ?? new IngestMetrics(metrics, () => kb.sources().map((s) => s.id));
  metrics.gauge(
    'kg_storage_writable',
    'Acknowledged graphs can be stored now (1) or not (0)',
    [],
    async () => ((await deps.storageWritable()) ? 1 : 0),
  );
  metrics.gauge('kg_triples', 'Triples in the knowledge base', [], () => kb.size);
  metrics.gauge('kg_sources', 'Configured sources', [], () => kb.sources().length);
  metrics.gauge(
    'kg_pulls_running',
    'Pulls from upstream sources in progress',
    [],
    () => deps.ingestion.running,
  );
  installServiceFront(app, {
    metrics,
    logger: deps.logger,
    lifecycle: deps.lifecycle,
    ready: async () => {
      const writable = await deps.storageWritable();
      return {
        ready: writable,
        storage: writable ? 'writable' : 'not writable',
        sources: kb.sources().length,
        triples: kb.size,
      };
    },
    // Browsers on the configured origins may call the API (the typed client runs in browsers).
    cors:
      config.cors.allowedOrigins.length > 0
        ? cors({
            origin: config.cors.allowedOrigins,
            allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
            allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
            exposeHeaders: ['X-Request-Id', 'WWW-Authenticate', 'Retry-After'],
            maxAge: 600,
          })
        : undefined,
    admission: { config: config.admission },
    rateLimit: {
      keys: deps.apiKeys,
      config: config.rateLimit,
      shared: deps.sharedLimits,
      endUserKeys: deps.apiKeys.filter((k) => k.endUsers).map((k) => k.name),
    },
  });
  const guards = authGuards(deps.apiKeys, { readsRequireKey: config.auth.readsRequireKey });

  const { sparql, passthrough } = config;
  const queries = new GraphQueries(kb, {
    limits: {
      maxLength: sparql.maxQueryLength,
      maxNesting: sparql.maxNesting,
      maxUnions: sparql.maxUnions,
      maxOptionals: sparql.maxOptionals,
    },
    maxRows: sparql.maxRows,
    maxBlockMs: sparql.maxBlockMs,
    passthrough: {
      timeoutMs: passthrough.timeoutMs,
      maxResponseBytes: passthrough.maxResponseBytes,
    },
    ...(deps.upstreamHeaders ? { upstreamHeaders: deps.upstreamHeaders } : {}),
  });
  // The API routes call the domain directly; its errors become problem details once, in the
  // error handler of this sub-app. Other errors go on to the app's handler.
  const api = new OpenAPIHono<KgEnv>({ defaultHook: zodValidationHook });
  api.onError(kgErrorHandler(sparql));
  mountSearchRoutes(api, { kb, guards });
  mountSparqlRoutes(api, { queries, guards, config: sparql, metrics });
  mountGraphRoutes(api, {
    kb,
    guards,
    ingestion: deps.ingestion,
    ingestMetrics,
    maxUploadBytes: config.ingestion.maxUploadBytes,
    publicUrl: config.publicUrl,
    parse: deps.rdfParse,
  });
  mountPassthroughRoutes(api, { queries, guards });
  app.route('/', api);
  app.route('/', metrics.routes({ config: config.metrics, keys: deps.apiKeys }));
  serveApiDocs(app, {
    bearerAuth: 'An API key from auth.apiKeys',
    info: {
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      title: 'dcg knowledge graph API',
      version: deps.version ?? '0.1.0',
      description:
        'Text search that returns IRIs and a SPARQL subset over ingested knowledge, and the same two interfaces passed through to upstream sources.',
    },
    // Operations that state no security are the reads: open unless `auth.readsRequireKey`.
    defaultSecurity: config.auth.readsRequireKey ? [{ bearerAuth: [] }] : [],
    operational: {
      ready: 'Checks that acknowledged graphs can be stored now (the data folder is writable).',
      metrics: config.metrics.enabled
        ? { requireKey: config.metrics.requireKey, securityScheme: 'bearerAuth' }
        : undefined,
    },
  });
  app.get('/', (c) => c.redirect('/docs'));
  return app;
}
