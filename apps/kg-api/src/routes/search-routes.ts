import type { KnowledgeBase } from '@dcg/knowledge-graph';
import { SearchQuerySchema } from '@dcg/knowledge-graph';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import { problem, SearchResponseOpenApiSchema } from './openapi-shared';

/**
 * `GET /v1/search/query`: ranked text search over the ingested knowledge (spec C1).
 *
 * @example
 * mountSearchRoutes(app, { kb, guards });
 */
export function mountSearchRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: { kb: KnowledgeBase; guards: Guards },
): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/search/query',
    operationId: 'search',
    tags: ['search'],
    summary: 'Search the ingested knowledge; answers IRIs, best first',
    description:
      'Matches the configured literal predicates only (labels above definitions; exact words above prefixes of the last word above typos; case, diacritics and punctuation folded).',
    middleware: [deps.guards.read] as const,
    request: { query: SearchQuerySchema },
    responses: {
      200: {
        description: 'One page of results',
        content: { 'application/json': { schema: SearchResponseOpenApiSchema } },
      },
      400: problem('term missing or too long, offset or limit out of range'),
      401: problem('reads need a key (auth.readsRequireKey)'),
    },
  });
  app.openapi(route, (c) => {
    const { term, offset, limit } = c.req.valid('query');
    const page = deps.kb.search(term, { offset, limit });
    return c.json(
      {
        results: page.results,
        totalResults: page.totalResults,
        offset,
        limit,
        hasNextPage: offset + page.results.length < page.totalResults,
      },
      200,
    );
  });
}
