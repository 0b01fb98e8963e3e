import { DEFAULT_MAX_DEPTH } from '@dcg/contract-schema';
import type { Governance } from '@dcg/governance';
import {
  type AdmissionConfig,
  installServiceFront,
  type MetricsConfig,
  MetricsConfigSchema,
  type RateLimitConfig,
  type ServiceAppDeps,
  ServiceMetrics,
  serveApiDocs,
  zodValidationHook,
} from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { GovernanceEnv } from './app-env';
import { authGuards } from './auth';
import type { ResolvedApiKey } from './config';
import { registerGovernanceMetrics } from './governance-metrics';
import { governanceErrorHandler } from './governance-problems';
import { bodySizeLimit } from './request-body';
import { mountEvaluationResultRoutes } from './routes/evaluation-result-routes';
import { mountEventRoutes } from './routes/event-routes';
import { registerWireComponents } from './routes/json-schema-component';
import { mountMarketplaceRoutes } from './routes/marketplace-routes';
import { mountMarketplaceSearchRoutes } from './routes/marketplace-search-routes';
import { mountPolicyRoutes } from './routes/policy-routes';
import { mountProvisioningRoutes } from './routes/provisioning-routes';
import { mountTemplateRoutes } from './routes/template-routes';
import { marketplacePages } from './web';

/**
 * Everything the governance-api Hono app is built from.
 *
 * @example
 * const deps: GovernanceAppDeps = { governance, apiKeys, logger, maxBodyBytes: 5 * 1024 * 1024 };
 */
export interface GovernanceAppDeps extends ServiceAppDeps {
  governance: Governance;
  apiKeys: readonly ResolvedApiKey[];
  maxBodyBytes: number;
  /** Deepest nesting of a JSON body (default 128); deeper bodies get 422. */
  maxDepth?: number;
  /** Largest JSON of one list page (default 8 MiB); pages are cut short to stay below. */
  maxPageBytes?: number;
  /** Open event streams per API key (default 5). */
  maxEventStreamsPerKey?: number;
  /** Admission control (default: the defaults of `AdmissionConfigSchema`). */
  admission?: AdmissionConfig;
  /** Per-client rate limits (default: the defaults of `RateLimitConfigSchema`). */
  rateLimit?: RateLimitConfig;
  /** Marketplace embeddings and hybrid search (absent: no search routes). */
  marketplaceSearch?: MarketplaceSearch;
  /** Extra sub-apps mounted at `/` (the demo tech adapter). */
  extras?: Hono[];
  /** Whether `/metrics` is served and asks for a key (default: served, key required). */
  metricsConfig?: MetricsConfig;
}

/**
 * Builds the governance-api app: templates, policies, evaluation results, provisioning,
 * marketplace API and pages, health, the OpenAPI document (`/openapi.json`) and its reference
 * page (`/docs`).
 *
 * @example
 * const app = buildGovernanceApp({ governance, apiKeys, logger, maxBodyBytes: 5_242_880 });
 * const server = await startHttpServer(app, { port: 0 });
 */
export function buildGovernanceApp(deps: GovernanceAppDeps): OpenAPIHono<GovernanceEnv> {
  const { governance } = deps;
  const app = new OpenAPIHono<GovernanceEnv>({ defaultHook: zodValidationHook });
  const metrics =
    deps.metrics ?? new ServiceMetrics({ service: 'governance-api', processMetrics: false });
  const metricsConfig = deps.metricsConfig ?? MetricsConfigSchema.parse({});
  const recorder = registerGovernanceMetrics(metrics, {
    governance,
    marketplaceSearch: deps.marketplaceSearch,
  });
  installServiceFront(app, {
    metrics,
    logger: deps.logger,
    lifecycle: deps.lifecycle,
    ready: async () => {
      await governance.store.ping();
      return { ready: true, storage: governance.store.kind };
    },
    admission: { config: deps.admission },
    rateLimit: { keys: deps.apiKeys, config: deps.rateLimit, shared: deps.sharedLimits },
  });
  app.use(bodySizeLimit(deps.maxBodyBytes));
  const maxJsonDepth = deps.maxDepth ?? DEFAULT_MAX_DEPTH;
  app.use(async (c, next) => {
    c.set('maxJsonDepth', maxJsonDepth);
    await next();
  });
  const guards = authGuards(deps.apiKeys);
  const maxBodyBytes = deps.maxBodyBytes;
  const maxPageBytes = deps.maxPageBytes ?? 8 * 1024 * 1024;
  // The API routes call the domain directly; its errors become problem details once, in the
  // error handler of this sub-app. Other errors go on to the app's handler.
  const api = new OpenAPIHono<GovernanceEnv>({ defaultHook: zodValidationHook });
  api.onError(governanceErrorHandler);
  mountTemplateRoutes(api, { governance, guards, maxBodyBytes });
  mountPolicyRoutes(api, { governance, guards, maxBodyBytes });
  mountEvaluationResultRoutes(api, {
    governance,
    guards,
    maxBodyBytes,
    maxPageBytes,
    recorder,
  });
  mountProvisioningRoutes(api, { governance, guards, maxBodyBytes, maxPageBytes });
  mountMarketplaceRoutes(api, { governance });
  if (deps.marketplaceSearch)
    mountMarketplaceSearchRoutes(api, { search: deps.marketplaceSearch, guards });
  mountEventRoutes(api, {
    governance,
    guards,
    maxStreamsPerKey: deps.maxEventStreamsPerKey,
    lifecycle: deps.lifecycle,
  });
  registerWireComponents(api);
  app.route('/', api);
  app.route(
    '/',
    marketplacePages(
      governance.marketplace,
      deps.marketplaceSearch ? { search: deps.marketplaceSearch } : {},
    ),
  );
  for (const extra of deps.extras ?? []) app.route('/', extra);
  app.route('/', metrics.routes({ config: metricsConfig, keys: deps.apiKeys }));
  serveApiDocs(app, {
    bearerAuth: 'An API key from auth.apiKeys (or the development key printed at start-up)',
    info: {
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      title: 'dcg governance-api',
      version: '0.1.0',
      description:
        'Guardian templates, computational governance policies, evaluation results, the provisioning coordinator and the marketplace.',
    },
    // Operations that state no security are the marketplace's public reads.
    defaultSecurity: [],
    operational: {
      ready: 'Checks that the store (SQLite or PostgreSQL) answers.',
      metrics: metricsConfig.enabled
        ? { requireKey: metricsConfig.requireKey, securityScheme: 'bearerAuth' }
        : undefined,
    },
  });
  app.get('/', (c) =>
    c.json({
      name: 'dcg governance-api',
      docs: '/docs',
      openapi: '/openapi.json',
      marketplace: '/marketplace',
      health: '/health',
      ready: '/ready',
      ...(metricsConfig.enabled ? { metrics: '/metrics' } : {}),
    }),
  );
  return app;
}
