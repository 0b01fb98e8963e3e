import {
  EmbeddingJobSchema as EmbeddingJobWire,
  EmbeddingsStatusSchema as EmbeddingsStatusWire,
  MarketplaceSearchQuerySchema,
  SearchResultSchema as SearchResultWire,
} from '@dcg/governance-schema';
import { bearerGuarded, openApiJson, openApiProblem, ProblemError } from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { GovernanceEnv } from '../app-env';
import type { Guards } from '../auth';
import { guardedProblems } from './guarded-problems';
import { wireSchema } from './json-schema-component';
import { EnvironmentSchema as Environment, idPathParams } from './openapi-schemas';

const SearchResultSchema = wireSchema('MarketplaceSearchResult', SearchResultWire);
const EmbeddingJobSchema = wireSchema('EmbeddingJob', EmbeddingJobWire);
const EmbeddingsStatusSchema = wireSchema('EmbeddingsStatus', EmbeddingsStatusWire);

const unavailable = {
  ...openApiProblem('The embedding storage or provider is unavailable'),
  headers: z.object({
    'Retry-After': z.string().meta({ description: 'Seconds to wait before retrying' }),
  }),
};

/**
 * Marketplace search and embeddings: `GET /v1/marketplace/search` (public, like the marketplace),
 * `POST /marketplace/embeddingsSearch/createEmbeddings` (platform-admin; 202 with a job), the job's
 * progress and the embeddings status.
 *
 * @example
 * mountMarketplaceSearchRoutes(app, { search, guards });
 */
export function mountMarketplaceSearchRoutes(
  app: OpenAPIHono<GovernanceEnv>,
  deps: { search: MarketplaceSearch; guards: Guards },
): void {
  const { search, guards } = deps;
  // A 503 (storage or provider unavailable) says when to come back.
  for (const path of ['/v1/marketplace/search', '/marketplace/embeddingsSearch/*']) {
    app.use(path, async (c, next) => {
      await next();
      if (c.res.status === 503 && !c.res.headers.has('retry-after'))
        c.res.headers.set('Retry-After', '5');
    });
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/marketplace/search',
      operationId: 'searchMarketplace',
      tags: ['marketplace'],
      summary:
        'Hybrid search of marketplace instances: by meaning (embeddings) and by words, names and URNs, over every environment unless `environment` is given',
      description:
        'How name, words and meaning combine into one ranking, and why a hit is left out, is explained in plain words at [/marketplace/how-search-ranks](/marketplace/how-search-ranks).',
      // Public like the marketplace it searches.
      security: [],
      request: { query: MarketplaceSearchQuerySchema },
      responses: {
        200: openApiJson(
          'One page of hits from `offset`, best first, each saying why it matched and carrying its data contracts with their states; `nextOffset` when more follow; `mode: lexical` with `fallback` while embeddings are missing or disabled',
          SearchResultSchema,
        ),
        400: openApiProblem('Invalid query'),
        503: unavailable,
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      // A MarketplaceSearchError becomes its problem in the API's one onError.
      return c.json(await search.search(query), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/marketplace/embeddingsSearch/createEmbeddings',
      operationId: 'createEmbeddings',
      tags: ['marketplace'],
      summary:
        'Embed every instance of an environment with the current model (needed after a model change)',
      ...bearerGuarded(guards.authenticate, guards.role('platform-admin')),
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: z.strictObject({ environment: Environment }) } },
        },
      },
      responses: {
        202: openApiJson(
          'The job (the running one when the environment already has one); its progress is at Location',
          EmbeddingJobSchema,
        ),
        ...guardedProblems({
          400: 'Invalid body',
          403: 'The key is not a platform-admin key',
          409: 'Embeddings search is disabled',
        }),
        503: unavailable,
      },
    }),
    async (c) => {
      const { environment } = c.req.valid('json');
      const job = await search.createEmbeddings(environment);
      c.header('Location', `/marketplace/embeddingsSearch/jobs/${encodeURIComponent(job.id)}`);
      return c.json(job, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/marketplace/embeddingsSearch/jobs/{id}',
      operationId: 'getEmbeddingsJob',
      tags: ['marketplace'],
      summary: 'An embeddings job with its progress (done / total, errors)',
      ...bearerGuarded(guards.authenticate),
      request: {
        params: idPathParams('id', 100),
      },
      responses: {
        200: openApiJson('The job', EmbeddingJobSchema),
        ...guardedProblems({ 404: 'No such job' }),
        503: unavailable,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const job = await search.getJob(id);
      if (!job)
        throw new ProblemError({
          status: 404,
          title: 'Not Found',
          detail: `No embeddings job "${id}"`,
        });
      return c.json(job, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/marketplace/embeddingsSearch/status',
      operationId: 'getEmbeddingsStatus',
      tags: ['marketplace'],
      summary:
        'Embeddings status: model, embedded and pending instances, stale models, last provider error, running jobs',
      security: [],
      request: { query: z.object({ environment: Environment.optional() }) },
      responses: {
        200: openApiJson('The status', EmbeddingsStatusSchema),
        400: openApiProblem('Invalid environment'),
        503: unavailable,
      },
    }),
    async (c) => {
      const { environment } = c.req.valid('query');
      return c.json(await search.status(environment), 200);
    },
  );
}
