import { ProblemError } from '@dcg/http-kit';
import { KnowledgeGraphError, type KnowledgeGraphErrorCode } from '@dcg/knowledge-graph';

const statusOf: Record<KnowledgeGraphErrorCode, { status: number; title: string }> = {
  RDF_SYNTAX: { status: 400, title: 'RDF syntax error' },
  EMPTY_GRAPH: { status: 400, title: 'The document yields no triples' },
  UNSUPPORTED_FORMAT: { status: 415, title: 'Unsupported RDF format' },
  UNKNOWN_SOURCE: { status: 404, title: 'Unknown source' },
  PERSISTENCE: { status: 503, title: 'Could not store the graph' },
  PASSTHROUGH_DISABLED: { status: 403, title: 'Passthrough not enabled' },
  INGESTION_DISABLED: { status: 403, title: 'Ingestion not enabled' },
  NO_BASE_URL: { status: 409, title: 'Source has no upstream URL' },
  UPSTREAM_TIMEOUT: { status: 504, title: 'Upstream source timed out' },
  UPSTREAM_ERROR: { status: 502, title: 'Upstream source failed' },
  UPSTREAM_MALFORMED: { status: 502, title: 'Upstream source answered a malformed response' },
  UPSTREAM_REJECTED: { status: 400, title: 'Upstream source rejected the request' },
  NOT_ACCEPTABLE: { status: 406, title: 'Not Acceptable' },
};

/**
 * Turns a `KnowledgeGraphError` into the matching problem details (404 unknown source, 403 mode
 * not enabled, 502/504 upstream failures…); anything else is rethrown as is (a bug: 500).
 *
 * @example
 * try { kb.source(id); } catch (e) { throw toProblem(e); }
 */
export function toProblem(error: unknown): unknown {
  if (!KnowledgeGraphError.is(error)) return error;
  const { status, title } = statusOf[error.code];
  return new ProblemError(
    {
      type: `urn:dcg:kg:problem:${error.code.toLowerCase().replaceAll('_', '-')}`,
      status,
      title,
      detail: error.message,
      code: error.code,
    },
    { cause: error },
  );
}

/**
 * Runs `task`, converting knowledge graph errors to problems.
 *
 * @example
 * const info = await withProblems(() => kb.replaceGraph(id, quads));
 */
export async function withProblems<T>(task: () => T | Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    throw toProblem(error);
  }
}
