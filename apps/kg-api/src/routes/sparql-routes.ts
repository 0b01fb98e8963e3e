import { ProblemError } from '@dcg/http-kit';
import type { KnowledgeBase } from '@dcg/knowledge-graph';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import type { SparqlEngine } from '../sparql-engine';
import { readSparqlQuery, sparqlBodyLimit } from '../sparql-request';
import { problem, SparqlJsonSchema } from './openapi-shared';

const PASSTHROUGH_HINT =
  'Passthrough (POST /passthrough/{sourceId}/v1/graph/sparql) sends the query to the upstream source, which may serve richer SPARQL.';

/**
 * The OpenAPI description of a SPARQL protocol endpoint (GET and POST), internal or passthrough.
 *
 * @example
 * registerSparqlPaths(app, '/v1/graph/sparql', { tag: 'sparql', summary: 'SPARQL' });
 */
export function registerSparqlPaths(
  app: OpenAPIHono<KgEnv>,
  path: string,
  options: { tag: string; summary: string; params?: z.ZodObject; extra?: Record<number, unknown> },
): void {
  const responses = {
    200: {
      description: 'SPARQL 1.1 Query Results JSON',
      content: { 'application/sparql-results+json': { schema: SparqlJsonSchema } },
    },
    400: problem('missing query, or a query outside the supported subset (with problem codes)'),
    415: problem('the body is neither application/sparql-query nor a form'),
    ...options.extra,
  } as const;
  const request = options.params ? { params: options.params } : {};
  app.openAPIRegistry.registerPath({
    method: 'get',
    path,
    tags: [options.tag],
    summary: options.summary,
    request: { ...request, query: z.object({ query: z.string().describe('SPARQL query') }) },
    responses,
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path,
    tags: [options.tag],
    summary: options.summary,
    request: {
      ...request,
      body: {
        required: true,
        content: {
          'application/sparql-query': { schema: z.string() },
          'application/x-www-form-urlencoded': { schema: z.object({ query: z.string() }) },
        },
      },
    },
    responses,
  });
}

/**
 * `GET`/`POST /v1/graph/sparql` over the union of the ingested graphs (spec C2), with the
 * configured timeout and row limit.
 *
 * @example
 * mountSparqlRoutes(app, { kb, guards, engine, timeoutMs: 10_000, maxRows: 10_000 });
 */
export function mountSparqlRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: {
    kb: KnowledgeBase;
    guards: Guards;
    engine: SparqlEngine;
    timeoutMs: number;
    maxRows: number;
  },
): void {
  registerSparqlPaths(app, '/v1/graph/sparql', {
    tag: 'sparql',
    summary: 'SPARQL (supported subset) over the ingested knowledge',
    extra: {
      422: problem('more rows than sparql.maxRows: add a LIMIT'),
      503: problem('the query ran longer than sparql.timeoutMs'),
    },
  });
  const handler = async (c: Context<KgEnv>) => {
    const text = await readSparqlQuery(c);
    const engine = deps.engine;
    const parsed = engine.parse(text);
    if (!parsed.success) {
      throw new ProblemError({
        type: 'urn:dcg:kg:problem:sparql-unsupported',
        status: 400,
        title: 'Query outside the supported SPARQL subset',
        detail: `${parsed.problems.map((p) => `${p.code}: ${p.message}`).join('; ')}. ${PASSTHROUGH_HINT}`,
        problems: parsed.problems,
        hint: PASSTHROUGH_HINT,
      });
    }
    let results: unknown;
    try {
      results = await engine.evaluate(parsed.query, deps.kb.stores(), {
        signal: c.req.raw.signal,
        timeoutMs: deps.timeoutMs,
        maxRows: deps.maxRows,
      });
    } catch (error) {
      const code = engine.errorCode(error);
      if (code === 'TIMEOUT') {
        throw new ProblemError({
          type: 'urn:dcg:kg:problem:sparql-timeout',
          status: 503,
          title: 'Query timed out',
          detail: `The query ran longer than ${deps.timeoutMs} ms (sparql.timeoutMs). ${PASSTHROUGH_HINT}`,
        });
      }
      if (code === 'ROW_LIMIT_EXCEEDED') {
        throw new ProblemError({
          type: 'urn:dcg:kg:problem:sparql-row-limit',
          status: 422,
          title: 'Too many rows',
          detail: `The query produces more than ${deps.maxRows} rows (sparql.maxRows); add a LIMIT.`,
        });
      }
      if (code === 'ABORTED') {
        throw new ProblemError({ status: 499, title: 'Client Closed Request' });
      }
      throw error;
    }
    return c.body(JSON.stringify(results), 200, {
      'content-type': 'application/sparql-results+json',
    });
  };
  app.get('/v1/graph/sparql', deps.guards.read, handler);
  app.post('/v1/graph/sparql', deps.guards.read, sparqlBodyLimit, handler);
}
