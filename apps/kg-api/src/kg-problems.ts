import { type Problem, ProblemError, problemResponse } from '@dcg/http-kit';
import { KnowledgeGraphError, type KnowledgeGraphErrorCode } from '@dcg/knowledge-graph';
import type { Context, ErrorHandler } from 'hono';
import type { KgEnv } from './app-env';
import type { KgApiConfig } from './config';

/**
 * The `type` of a kg-api problem: `urn:dcg:kg:<code>`, the pattern of every dcg API
 * (`urn:dcg:governance:<code>`).
 *
 * @example
 * kgProblemType('unknown_source'); // 'urn:dcg:kg:unknown_source'
 */
export function kgProblemType(code: string): string {
  return `urn:dcg:kg:${code}`;
}

const PASSTHROUGH_HINT =
  'Passthrough (POST /passthrough/{sourceId}/v1/graph/sparql) sends the query to the upstream source, which may serve richer SPARQL.';

const STATUS: Record<KnowledgeGraphErrorCode, { status: number; title: string }> = {
  rdf_syntax: { status: 400, title: 'RDF syntax error' },
  document_too_costly: { status: 422, title: 'Document too costly to convert' },
  empty_graph: { status: 400, title: 'The document yields no triples' },
  graph_too_large: { status: 413, title: 'Graph too large' },
  unsupported_format: { status: 415, title: 'Unsupported RDF format' },
  unknown_source: { status: 404, title: 'Unknown source' },
  persistence: { status: 503, title: 'Could not store the graph' },
  snapshot_unreadable: { status: 503, title: 'Stored graph snapshot unreadable' },
  passthrough_disabled: { status: 403, title: 'Passthrough not enabled' },
  ingestion_disabled: { status: 403, title: 'Ingestion not enabled' },
  no_base_url: { status: 409, title: 'Source has no upstream URL' },
  upstream_timeout: { status: 504, title: 'Upstream source timed out' },
  upstream_error: { status: 502, title: 'Upstream source failed' },
  upstream_malformed: { status: 502, title: 'Upstream source answered a malformed response' },
  upstream_rejected: { status: 400, title: 'Upstream source rejected the request' },
  not_acceptable: { status: 406, title: 'Not Acceptable' },
  dataset_unsupported: { status: 400, title: 'RDF dataset parameters are not supported' },
  query_rejected: { status: 400, title: 'Query outside the supported SPARQL subset' },
  query_timeout: { status: 503, title: 'Query timed out' },
  row_limit_exceeded: { status: 422, title: 'Too many rows' },
  query_too_expensive: { status: 422, title: 'Query too expensive' },
  query_aborted: { status: 499, title: 'Client Closed Request' },
};

// The problem details of a knowledge graph error. The detail of a query over the ingested graphs
// names the setting that bounds it and, where passthrough could help, says so (`internalQuery`).
function kgProblem(
  error: KnowledgeGraphError,
  sparql: Pick<KgApiConfig['sparql'], 'timeoutMs' | 'maxRows'>,
  internalQuery: boolean,
): Problem {
  const { status, title } = STATUS[error.code];
  const hint = internalQuery ? ` ${PASSTHROUGH_HINT}` : '';
  const problem: Problem = {
    type: kgProblemType(error.code),
    status,
    title,
    detail: error.message,
    code: error.code,
  };
  switch (error.code) {
    case 'query_rejected':
      return {
        ...problem,
        detail: internalQuery ? `${error.message}.${hint}` : error.message,
        problems: error.issues,
        ...(internalQuery ? { hint: PASSTHROUGH_HINT } : {}),
      };
    case 'query_timeout':
      return {
        ...problem,
        detail: `The query ran longer than ${sparql.timeoutMs} ms (sparql.timeoutMs), waiting for its turn included.${hint}`,
      };
    case 'row_limit_exceeded':
      return {
        ...problem,
        detail: `The query produces more than ${sparql.maxRows} rows (sparql.maxRows); add a LIMIT.`,
      };
    case 'query_too_expensive':
      return {
        ...problem,
        detail: `${error.message} (sparql.maxBlockMs). Move the EXISTS out of ORDER BY (bind it in the pattern), or use passthrough.${hint}`,
      };
    default:
      return problem;
  }
}

/** `Server-Timing` of a request whose route started the clock (the SPARQL endpoint does). */
export function serverTiming(c: Context<KgEnv>): Record<string, string> {
  const started = c.get('timingStartedAt');
  return started === undefined
    ? {}
    : { 'server-timing': `app;dur=${(performance.now() - started).toFixed(1)}` };
}

/**
 * The error handler of the kg-api routes: a {@link KnowledgeGraphError} becomes its problem
 * details, once, here (upstream failures and storage failures are logged with their cause); a
 * problem of a timed route gets its `Server-Timing`; anything else goes on to the app's handler.
 *
 * @example
 * api.onError(kgErrorHandler(config.sparql));
 */
export function kgErrorHandler(
  sparql: Pick<KgApiConfig['sparql'], 'timeoutMs' | 'maxRows'>,
): ErrorHandler<KgEnv> {
  return (error, c) => {
    const timing = serverTiming(c);
    if (ProblemError.isInstance(error) && 'server-timing' in timing) {
      return problemResponse({ instance: c.req.path, ...error.problem }, timing);
    }
    if (!KnowledgeGraphError.isInstance(error)) throw error;
    if (error.upstream || error.code === 'persistence') {
      // The client gets a short problem; operators get the cause.
      c.get('logger').warn(error.upstream ? 'upstream source failed' : 'storage failure', {
        path: c.req.path,
        code: error.code,
        detail: error.message,
        cause: error.cause instanceof Error ? error.cause.message : undefined,
      });
    }
    const internalQuery = !c.req.path.startsWith('/passthrough/');
    return problemResponse(
      { instance: c.req.path, ...kgProblem(error, sparql, internalQuery) },
      timing,
    );
  };
}
