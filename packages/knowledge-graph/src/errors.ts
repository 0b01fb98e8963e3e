import { CodedErrorWithIssues, hasBrand } from '@dcg/coded-error';
import type { Problem } from '@dcg/sparql-subset';

const marker = Symbol.for('dcg.knowledge-graph.error');

/**
 * Machine-readable reasons a knowledge graph operation fails (snake_case, like every code of
 * dcg). The `query_*` codes and `row_limit_exceeded` come from {@link query}: `query_rejected`
 * carries the `problems` of the query text. `not_acceptable` and `dataset_unsupported` refuse a
 * passthrough query whose answer types or RDF dataset cannot be served.
 */
export type KnowledgeGraphErrorCode =
  | 'rdf_syntax'
  | 'document_too_costly'
  | 'empty_graph'
  | 'graph_too_large'
  | 'unsupported_format'
  | 'unknown_source'
  | 'persistence'
  | 'snapshot_unreadable'
  | 'passthrough_disabled'
  | 'upstream_timeout'
  | 'upstream_error'
  | 'upstream_malformed'
  | 'upstream_rejected'
  | 'not_acceptable'
  | 'dataset_unsupported'
  | 'ingestion_disabled'
  | 'no_base_url'
  | 'query_rejected'
  | 'query_timeout'
  | 'query_too_expensive'
  | 'query_aborted'
  | 'row_limit_exceeded';

/** Codes of failures of an upstream source (passthrough, pulls). */
const UPSTREAM_CODES: ReadonlySet<KnowledgeGraphErrorCode> = new Set([
  'upstream_timeout',
  'upstream_error',
  'upstream_malformed',
  'upstream_rejected',
]);

/**
 * The one error base class of `@dcg/knowledge-graph`: a string `code`, an optional `cause`, the
 * `issues` of a rejected query (stable problem codes of `@dcg/sparql-subset`), and recognisable across copies of the package through
 * {@link KnowledgeGraphError.isInstance}.
 *
 * @example
 * try { await kb.replaceGraph('nope', []); } catch (e) {
 *   if (KnowledgeGraphError.isInstance(e) && e.code === 'unknown_source') console.log(e.message);
 * }
 */
export class KnowledgeGraphError extends CodedErrorWithIssues<KnowledgeGraphErrorCode, Problem> {
  constructor(
    code: KnowledgeGraphErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: readonly Problem[] },
  ) {
    super(marker, code, message, options);
    this.name = 'KnowledgeGraphError';
  }

  /** True when an upstream source failed (timeout, error, malformed answer, rejection). */
  get upstream(): boolean {
    return UPSTREAM_CODES.has(this.code);
  }

  /** True for any `KnowledgeGraphError`, even from another copy of this package. */
  static isInstance = hasBrand<KnowledgeGraphError>(marker);
}
