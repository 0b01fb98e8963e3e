import { openApiJson, openApiProblem, openApiProblems, ProblemError } from '@dcg/http-kit';
import { type GraphQueries, SearchQuerySchema } from '@dcg/knowledge-graph';
import { ALL_RESULTS_FORMATS, RESULTS_MEDIA_TYPES, type ResultsFormat } from '@dcg/sparql-subset';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import { readSparqlRequest, requireQuery, sparqlBodyLimit } from '../sparql-request';
import {
  SearchResponseOpenApiSchema,
  SourceParamsSchema,
  SparqlJsonSchema,
} from './openapi-shared';
import { registerSparqlPaths } from './sparql-routes';

const upstreamProblems = {
  ...openApiProblems({
    403: 'passthrough is not enabled for the source',
    404: 'unknown source',
    409: 'the source has no URL for this interface (search needs baseUrl or searchEndpoint)',
    502: 'the upstream failed or answered something malformed',
    504: 'the upstream did not answer in time',
  }),
};

/**
 * Passthrough: the same search and SPARQL interfaces, forwarded to a configured source. Only
 * configured endpoints are ever called, with the source's credentials and this request's id;
 * the upstream answer is checked before it is passed on (the rules are `@dcg/knowledge-graph`'s
 * {@link GraphQueries}).
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
        200: openApiJson('The upstream page', SearchResponseOpenApiSchema),
        400: openApiProblem('bad term, offset or limit'),
        ...upstreamProblems,
      },
    }),
    async (c) => {
      const { sourceId } = c.req.valid('param');
      const query = c.req.valid('query');
      const page = await deps.queries.searchAtSource(sourceId, query, {
        signal: c.req.raw.signal,
        requestId: c.get('requestId'),
      });
      return c.json(page, 200);
    },
  );

  registerSparqlPaths(app, '/passthrough/{sourceId}/v1/graph/sparql', {
    operationId: 'queryUpstreamSparql',
    tag: 'passthrough',
    summary: 'SPARQL at the upstream source (full SPARQL if it supports it; never SPARQL Update)',
    params: SourceParamsSchema,
    format:
      'results format asked of the upstream (its media type goes as Accept); wins over Accept',
    extra: {
      ...upstreamProblems,
      200: {
        description:
          "The upstream's answer with its media type: SPARQL results (JSON, checked; XML, CSV, TSV) or, for CONSTRUCT and DESCRIBE, RDF. `Accept` is passed upstream, its ranges of these types only (none: SPARQL JSON, or Turtle for CONSTRUCT / DESCRIBE); a `format` parameter (json, xml, csv, tsv) wins over it, as on the internal endpoint.",
        content: {
          'application/sparql-results+json': { schema: SparqlJsonSchema },
          ...Object.fromEntries(
            [
              'application/sparql-results+xml',
              'text/csv',
              'text/tab-separated-values',
              'text/turtle',
              'application/n-triples',
              'application/ld+json',
              'application/rdf+xml',
            ].map((type) => [type, { schema: z.string() }]),
          ),
        },
      },
      400: openApiProblem(
        'missing query, an update, default-graph-uri / named-graph-uri, or the upstream rejected the query',
      ),
      406: openApiProblem('the upstream cannot answer in any type Accept names'),
    },
  });
  const handler = async (c: Context<KgEnv>) => {
    const sourceId = c.req.param('sourceId') ?? '';
    // The source is checked before the body is read: unknown → 404, disabled → 403.
    deps.queries.passthroughSource(sourceId);
    const request = await readSparqlRequest(c);
    const answer = await deps.queries.query(requireQuery(request.query), {
      source: sourceId,
      signal: c.req.raw.signal,
      requestId: c.get('requestId'),
      accept: acceptOf(request.format, c.req.header('accept')),
      datasetParameters: request.datasetParameters,
    });
    return c.body(answer.body, 200, { 'content-type': answer.contentType });
  };
  app.get('/passthrough/:sourceId/v1/graph/sparql', deps.guards.read, handler);
  app.post('/passthrough/:sourceId/v1/graph/sparql', deps.guards.read, sparqlBodyLimit, handler);
}

/**
 * The `format` parameter, as on the internal endpoint, asks the upstream for that results
 * format and wins over `Accept`; an unknown one is a 400.
 */
function acceptOf(format: string | undefined, accept: string | undefined): string | undefined {
  if (format === undefined) return accept;
  const wanted = format.trim().toLowerCase();
  if (ALL_RESULTS_FORMATS.includes(wanted as ResultsFormat)) {
    return RESULTS_MEDIA_TYPES[wanted as ResultsFormat];
  }
  throw new ProblemError({
    status: 400,
    title: 'Invalid request',
    detail: `format must be one of ${ALL_RESULTS_FORMATS.join(', ')}`,
    errors: [{ path: '$.format', message: 'unknown results format', code: 'invalid_value' }],
  });
}
