import {
  Admission,
  type AdmissionRefusal,
  openApiProblem,
  openApiProblems,
  ProblemError,
  problemResponse,
  type ServiceMetrics,
} from '@dcg/http-kit';
import { type GraphQueries, KnowledgeGraphError } from '@dcg/knowledge-graph';
import {
  ALL_RESULTS_FORMATS,
  acceptQuality,
  BOOLEAN_RESULTS_FORMATS,
  chooseResultsFormat,
  type SparqlResults as IngestedSparqlResults,
  parseAccept,
  RESULTS_MEDIA_TYPES,
  type ResultsFormat,
  serializeResults,
  serviceDescription,
  serviceDescriptionJsonLd,
} from '@dcg/sparql-subset';
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import type { KgApiConfig } from '../config';
import { kgProblemType, serverTiming } from '../kg-problems';
import { readSparqlRequest, requireQuery, sparqlBodyLimit } from '../sparql-request';
import { SparqlJsonSchema } from './openapi-shared';

/**
 * The OpenAPI description of a SPARQL protocol endpoint (GET and POST), internal or passthrough.
 *
 * @example
 * registerSparqlPaths(app, '/v1/graph/sparql', { operationId: 'querySparql', tag: 'sparql', summary: 'SPARQL' });
 */
export function registerSparqlPaths(
  app: OpenAPIHono<KgEnv>,
  path: string,
  options: {
    /** `<operationId>ViaGet` and `<operationId>ViaPost` name the two operations. */
    operationId: string;
    tag: string;
    summary: string;
    params?: z.ZodObject;
    extra?: Record<number, unknown>;
    /**
     * The endpoint answers every SPARQL 1.1 results format, and without a query its Service
     * Description.
     */
    resultsFormats?: boolean;
    /** Documents the `format` parameter (URL or form) with this description. */
    format?: string;
  },
): void {
  const formatParameter = options.format
    ? { format: z.enum(ALL_RESULTS_FORMATS).optional().describe(options.format) }
    : {};
  const responses = {
    200: options.resultsFormats
      ? {
          description:
            'SPARQL 1.1 Query Results in the format chosen by `format` or `Accept` (q-values; no Accept: JSON). CSV and TSV for SELECT only.',
          content: {
            'application/sparql-results+json': { schema: SparqlJsonSchema },
            'application/sparql-results+xml': { schema: z.string() },
            'text/csv': { schema: z.string() },
            'text/tab-separated-values': { schema: z.string() },
          },
        }
      : {
          description: 'SPARQL 1.1 Query Results JSON',
          content: { 'application/sparql-results+json': { schema: SparqlJsonSchema } },
        },
    ...openApiProblems({
      400: 'missing query, or a query outside the supported subset (with problem codes)',
      415: 'the body is neither application/sparql-query nor a form',
    }),
    ...options.extra,
  } as const;
  // GET and POST differ in how the query comes (URL or body) and, with results formats, in the
  // Service Description that GET answers without one; the rest of the two operations is shared.
  const register = (
    method: 'get' | 'post',
    request: NonNullable<RouteConfig['request']>,
    operationResponses: RouteConfig['responses'],
  ) =>
    app.openAPIRegistry.registerPath({
      method,
      path,
      operationId: `${options.operationId}Via${method === 'get' ? 'Get' : 'Post'}`,
      tags: [options.tag],
      summary: options.summary,
      request: { ...(options.params ? { params: options.params } : {}), ...request },
      responses: operationResponses,
    });
  register(
    'get',
    {
      query: z.object({
        query: options.resultsFormats
          ? z
              .string()
              .optional()
              .describe('SPARQL query; without it, the SPARQL 1.1 Service Description (Turtle)')
          : z.string().describe('SPARQL query'),
        ...formatParameter,
      }),
    },
    options.resultsFormats
      ? {
          ...responses,
          200: {
            description: `${responses[200].description} Without a query: the SPARQL 1.1 Service Description (Turtle, or JSON-LD when Accept prefers it).`,
            content: {
              ...responses[200].content,
              'text/turtle': { schema: z.string() },
              'application/ld+json': { schema: z.record(z.string(), z.unknown()) },
            },
          },
        }
      : responses,
  );
  register(
    'post',
    {
      ...(options.format ? { query: z.object(formatParameter) } : {}),
      body: {
        required: true,
        content: {
          'application/sparql-query': { schema: z.string() },
          'application/x-www-form-urlencoded': {
            schema: z.object({ query: z.string(), ...formatParameter }),
          },
        },
      },
    },
    responses,
  );
}

function contentType(format: ResultsFormat): string {
  const type = RESULTS_MEDIA_TYPES[format];
  return format === 'json' ? type : `${type}; charset=utf-8`;
}

/** The results format asked for, or a 400 (unknown `format`) / 406 (nothing offered fits) problem. */
function negotiate(
  accept: string | undefined,
  format: string | undefined,
  offered: readonly ResultsFormat[],
): ResultsFormat {
  const chosen = chooseResultsFormat({ accept, format, offered });
  if (chosen) return chosen;
  if (
    format !== undefined &&
    !ALL_RESULTS_FORMATS.includes(format.trim().toLowerCase() as ResultsFormat)
  ) {
    throw new ProblemError({
      status: 400,
      title: 'Invalid request',
      detail: `format must be one of ${ALL_RESULTS_FORMATS.join(', ')}`,
      errors: [
        {
          path: '$.format',
          message: `unknown results format ${JSON.stringify(format.slice(0, 64))}`,
          code: 'invalid_value',
        },
      ],
    });
  }
  const types = offered.map((f) => RESULTS_MEDIA_TYPES[f]);
  throw new ProblemError({
    type: kgProblemType('not_acceptable'),
    status: 406,
    title: 'Not Acceptable',
    detail: `${format !== undefined ? `format=${format}` : `Accept: ${(accept ?? '').slice(0, 200)}`} allows none of the results formats offered for this query: ${types.join(', ')}${offered === BOOLEAN_RESULTS_FORMATS ? ' (an ASK answer has no CSV or TSV form)' : ''}`,
    offered: types,
  });
}

/** JSON-LD when `Accept` ranks it above Turtle (Turtle otherwise, and without Accept). */
function prefersJsonLd(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return acceptQuality('application/ld+json', ranges) > acceptQuality('text/turtle', ranges);
}

/** The endpoint queries one dataset, the union of the ingested graphs: it cannot honour others. */
/** The `reason` label of `kg_sparql_queries_refused_total` for each refusal of the admission. */
const REFUSAL_LABELS: Record<AdmissionRefusal, string> = {
  'queue-full': 'queue_full',
  timeout: 'deadline',
  aborted: 'aborted',
};

function refuseDatasetParameters(present: string[]): void {
  if (present.length === 0) return;
  throw new ProblemError({
    type: kgProblemType('dataset_unsupported'),
    status: 400,
    title: 'RDF dataset parameters are not supported',
    detail: `${present.join(' and ')} cannot be honoured: every query runs over the union of the ingested graphs (its default graph). Leave the parameter out, or use passthrough to a source that supports it.`,
    errors: present.map((name) => ({
      path: `$.${name}`,
      message: 'not supported',
      code: 'unsupported',
    })),
  });
}

/**
 * `GET`/`POST /v1/graph/sparql` over the union of the ingested graphs (spec C2), with the
 * configured limits: query admission (`maxConcurrent` at once, `maxQueued` waiting, then 503 with
 * Retry-After), one deadline over waiting, parsing and evaluation; the query itself runs through
 * `@dcg/knowledge-graph`'s {@link GraphQueries}, whose errors the API's error handler maps.
 *
 * @example
 * mountSparqlRoutes(app, { queries, guards, config: config.sparql, metrics });
 */
export function mountSparqlRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: {
    queries: GraphQueries;
    guards: Guards;
    config: KgApiConfig['sparql'];
    /**
     * Gets `kg_sparql_queue_depth`, the queries waiting for an evaluation slot, read at each
     * scrape, and `kg_sparql_evaluation_duration_seconds` by outcome.
     */
    metrics: ServiceMetrics;
  },
): void {
  registerSparqlPaths(app, '/v1/graph/sparql', {
    operationId: 'querySparql',
    tag: 'sparql',
    summary: 'SPARQL (supported subset) over the ingested knowledge',
    resultsFormats: true,
    format: 'results format; wins over Accept (ASK: json or xml only)',
    extra: {
      400: openApiProblem(
        'missing query, a query outside the supported subset (with problem codes), an unknown format, or default-graph-uri / named-graph-uri (not supported: queries run over the union of the ingested graphs)',
      ),
      406: openApiProblem(
        'none of the offered results formats is acceptable (Accept or format); the problem lists them in `offered`',
      ),
      422: openApiProblem(
        'more rows than sparql.maxRows (add a LIMIT), or a part that cannot yield ran longer than sparql.maxBlockMs',
      ),
      503: openApiProblem(
        'the query ran longer than sparql.timeoutMs, or too many queries are running and waiting (with Retry-After)',
      ),
    },
  });
  // Each query waits at most until its own deadline (arrival + timeoutMs), never longer.
  const admission = new Admission({
    maxInFlight: deps.config.maxConcurrent,
    maxQueued: deps.config.maxQueued,
    maxWaitMs: deps.config.timeoutMs,
  });
  deps.metrics.gauge(
    'kg_sparql_queue_depth',
    'SPARQL queries waiting for an evaluation slot (sparql.maxConcurrent running, up to sparql.maxQueued waiting)',
    [],
    () => admission.load.queued,
  );
  deps.metrics.gauge(
    'kg_sparql_queries_running',
    'SPARQL queries being evaluated now (at most sparql.maxConcurrent)',
    [],
    () => admission.load.inFlight,
  );
  const refused = deps.metrics.counter(
    'kg_sparql_queries_refused_total',
    'SPARQL queries that got no evaluation slot: queue_full (503 at once), deadline (timed out waiting), aborted (the client left while waiting)',
    ['reason'],
  );
  for (const reason of ['queue_full', 'deadline', 'aborted']) refused.inc({ reason }, 0);
  // The time a query waits for a slot is not in it (that is in http_request_duration_seconds).
  const evaluationTime = deps.metrics.histogram(
    'kg_sparql_evaluation_duration_seconds',
    'Evaluation time of SPARQL queries over the ingested graphs, by outcome',
    ['outcome'],
  );
  const { timeoutMs } = deps.config;
  const timedOut = () =>
    new KnowledgeGraphError('query_timeout', `the query ran longer than ${timeoutMs} ms`);
  const handler = async (c: Context<KgEnv>) => {
    // One deadline for every stage from the request's arrival: reading the text, the wait for a
    // turn, parsing, planning and evaluation. Server-Timing says how long the service spent on
    // the request, whatever the answer (the error handler adds it to problems).
    c.set('timingStartedAt', performance.now());
    const deadline = Date.now() + timeoutMs;
    const request = await readSparqlRequest(c);
    if (request.query === undefined && c.req.method !== 'POST') {
      // The endpoint itself (SPARQL 1.1 Service Description §2): what it serves, in Turtle.
      const url = new URL(c.req.url);
      const endpoint = `${url.origin}${url.pathname}`;
      if (prefersJsonLd(c.req.header('accept'))) {
        return c.body(JSON.stringify(serviceDescriptionJsonLd({ endpoint })), 200, {
          'content-type': 'application/ld+json',
          vary: 'accept',
          ...serverTiming(c),
        });
      }
      return c.body(serviceDescription({ endpoint }), 200, {
        'content-type': 'text/turtle; charset=utf-8',
        vary: 'accept',
        ...serverTiming(c),
      });
    }
    const text = requireQuery(request.query);
    refuseDatasetParameters(request.datasetParameters);
    const accept = c.req.header('accept');
    const format = negotiate(accept, request.format, ALL_RESULTS_FORMATS);
    const release = await admission.enter(c.req.raw.signal, deadline);
    if (typeof release === 'string') {
      refused.inc({ reason: REFUSAL_LABELS[release] });
      if (release === 'queue-full') {
        const load = admission.load;
        // Seconds until the earliest running query must have ended (its deadline).
        const retryAfter = admission.secondsUntilTurnEnds(1);
        return problemResponse(
          {
            type: kgProblemType('sparql_busy'),
            status: 503,
            title: 'Too many queries',
            detail: `${load.inFlight} queries are running and ${load.queued} waiting (sparql.maxConcurrent, sparql.maxQueued); retry after ${retryAfter} s`,
          },
          { 'retry-after': String(retryAfter), ...serverTiming(c) },
        );
      }
      if (release === 'timeout') throw timedOut();
      throw new KnowledgeGraphError('query_aborted', 'the client closed the request');
    }
    let results: IngestedSparqlResults;
    const end = evaluationTime.startTimer();
    try {
      results = await deps.queries.query(text, {
        signal: c.req.raw.signal,
        timeoutMs: deadline - Date.now(),
      });
      end({ outcome: 'ok' });
    } catch (error) {
      const code = KnowledgeGraphError.isInstance(error) ? error.code : 'error';
      // A query refused by its text was never evaluated.
      if (code !== 'query_rejected') end({ outcome: code });
      throw error;
    } finally {
      release();
    }
    // CSV and TSV have no form for an ASK answer: the client's next choice among JSON and XML.
    const answerFormat =
      'boolean' in results && !BOOLEAN_RESULTS_FORMATS.includes(format)
        ? negotiate(accept, request.format, BOOLEAN_RESULTS_FORMATS)
        : format;
    return c.body(serializeResults(results, answerFormat), 200, {
      'content-type': contentType(answerFormat),
      vary: 'accept',
      ...serverTiming(c),
    });
  };
  app.get('/v1/graph/sparql', deps.guards.read, handler);
  app.post('/v1/graph/sparql', deps.guards.read, sparqlBodyLimit, handler);
  // GET also answers HEAD (Hono runs the GET handler without the body).
  app.all('/v1/graph/sparql', (c) =>
    problemResponse(
      {
        status: 405,
        title: 'Method Not Allowed',
        detail: `${c.req.method} is not served here: query with GET, HEAD or POST`,
        instance: c.req.path,
      },
      { allow: 'GET, HEAD, POST' },
    ),
  );
}
