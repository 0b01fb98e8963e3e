import { type GraphQueries, SearchQuerySchema } from '@dcg/knowledge-graph';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import { readSparqlQuery, sparqlBodyLimit } from '../sparql-request';
import { problem, SearchResponseOpenApiSchema, SourceParamsSchema } from './openapi-shared';
import { registerSparqlPaths } from './sparql-routes';

const upstreamProblems = {
  403: problem('passthrough is not enabled for the source'),
  404: problem('unknown source'),
  409: problem('the source has no baseUrl or endpoints'),
  502: problem('the upstream failed or answered something malformed'),
  504: problem('the upstream did not answer in time'),
};

/**
 * Passthrough: the same search and SPARQL interfaces, forwarded to a configured source. Only
 * configured endpoints are ever called; the upstream answer is checked before it is passed on
 * (the rules are `@dcg/knowledge-graph`'s {@link GraphQueries}).
 *
 * @example
 * mountPassthroughRoutes(app, { queries, guards });
 */
export function mountPassthroughRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: { queries: GraphQueries; guards: Guards },
): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/passthrough/{sourceId}/v1/search/query',
      operationId: 'searchUpstream',
      tags: ['passthrough'],
      summary: 'Search at the upstream source (its own search semantics)',
      middleware: [deps.guards.read] as const,
      request: { params: SourceParamsSchema, query: SearchQuerySchema },
      responses: {
        200: {
          description: 'The upstream page',
          content: { 'application/json': { schema: SearchResponseOpenApiSchema } },
        },
        400: problem('bad term, offset or limit'),
        ...upstreamProblems,
      },
    }),
    async (c) => {
      const { sourceId } = c.req.valid('param');
      const query = c.req.valid('query');
      const page = await deps.queries.searchAtSource(sourceId, query, c.req.raw.signal);
      return c.json(page, 200);
    },
  );

  registerSparqlPaths(app, '/passthrough/{sourceId}/v1/graph/sparql', {
    operationId: 'queryUpstreamSparql',
    tag: 'passthrough',
    summary: 'SPARQL at the upstream source (full SPARQL if it supports it; never SPARQL Update)',
    params: SourceParamsSchema,
    extra: upstreamProblems,
  });
  const handler = async (c: Context<KgEnv>) => {
    const sourceId = c.req.param('sourceId') ?? '';
    // The source is checked before the body is read: unknown → 404, disabled → 403.
    deps.queries.passthroughSource(sourceId);
    const query = await readSparqlQuery(c);
    const results = await deps.queries.query(query, {
      source: sourceId,
      signal: c.req.raw.signal,
    });
    return c.body(JSON.stringify(results), 200, {
      'content-type': 'application/sparql-results+json',
    });
  };
  app.get('/passthrough/:sourceId/v1/graph/sparql', deps.guards.read, handler);
  app.post('/passthrough/:sourceId/v1/graph/sparql', deps.guards.read, sparqlBodyLimit, handler);
}
