import type { Governance } from '@dcg/governance';
import {
  apiReference,
  healthRoutes,
  installErrorHandling,
  type Logger,
  requestContext,
  zodValidationHook,
} from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { GovernanceEnv } from './app-env';
import { authGuards } from './auth';
import type { ResolvedApiKey } from './config';
import { bodySizeLimit } from './request-body';
import { mountEvaluationResultRoutes } from './routes/evaluation-result-routes';
import { mountEventRoutes } from './routes/event-routes';
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
export interface GovernanceAppDeps {
  governance: Governance;
  apiKeys: readonly ResolvedApiKey[];
  logger: Logger;
  maxBodyBytes: number;
  /** Marketplace embeddings and hybrid search (absent: no search routes). */
  marketplaceSearch?: MarketplaceSearch;
  /** Extra sub-apps mounted at `/` (the demo tech adapter). */
  extras?: Hono[];
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
  app.use(requestContext({ logger: deps.logger }));
  installErrorHandling(app, deps.logger);
  app.use(bodySizeLimit(deps.maxBodyBytes));
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from auth.apiKeys (or the development key printed at start-up)',
  });
  const guards = authGuards(deps.apiKeys);
  const maxBodyBytes = deps.maxBodyBytes;
  mountTemplateRoutes(app, { governance, guards, maxBodyBytes });
  mountPolicyRoutes(app, { governance, guards, maxBodyBytes });
  mountEvaluationResultRoutes(app, { governance, guards, maxBodyBytes });
  mountProvisioningRoutes(app, { governance, guards, maxBodyBytes });
  mountMarketplaceRoutes(app, { governance });
  if (deps.marketplaceSearch)
    mountMarketplaceSearchRoutes(app, { search: deps.marketplaceSearch, guards });
  mountEventRoutes(app, { governance, guards });
  app.route(
    '/',
    marketplacePages(
      governance.marketplace,
      deps.marketplaceSearch ? { search: deps.marketplaceSearch } : {},
    ),
  );
  for (const extra of deps.extras ?? []) app.route('/', extra);
  app.route(
    '/',
    healthRoutes({
      ready: async () => {
        await governance.store.ping();
        return { ready: true, storage: governance.store.kind };
      },
    }),
  );
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'dcg governance-api',
      version: '0.1.0',
      description:
        'Guardian templates, computational governance policies, evaluation results, the provisioning coordinator and the marketplace.',
    },
  });
  app.route('/docs', apiReference({ specUrl: '/openapi.json', title: 'dcg governance-api' }));
  app.get('/', (c) =>
    c.json({
      name: 'dcg governance-api',
      docs: '/docs',
      openapi: '/openapi.json',
      marketplace: '/marketplace',
      health: '/health',
      ready: '/ready',
    }),
  );
  return app;
}
