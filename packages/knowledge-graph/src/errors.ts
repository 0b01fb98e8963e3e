const marker = Symbol.for('dcg.knowledge-graph.error');

/** Machine-readable reasons a knowledge graph operation fails. */
export type KnowledgeGraphErrorCode =
  | 'RDF_SYNTAX'
  | 'EMPTY_GRAPH'
  | 'UNSUPPORTED_FORMAT'
  | 'UNKNOWN_SOURCE'
  | 'PERSISTENCE'
  | 'PASSTHROUGH_DISABLED'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_MALFORMED'
  | 'UPSTREAM_REJECTED'
  | 'NOT_ACCEPTABLE'
  | 'INGESTION_DISABLED'
  | 'NO_BASE_URL';

/**
 * The one error base class of `@dcg/knowledge-graph`: a string `code`, an optional `cause`, and
 * recognisable across copies of the package through {@link KnowledgeGraphError.is}.
 *
 * @example
 * try { await kb.replaceGraph('nope', []); } catch (e) {
 *   if (KnowledgeGraphError.is(e) && e.code === 'UNKNOWN_SOURCE') console.log(e.message);
 * }
 */
export class KnowledgeGraphError extends Error {
  readonly code: KnowledgeGraphErrorCode;
  readonly [marker] = true;

  constructor(code: KnowledgeGraphErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KnowledgeGraphError';
    this.code = code;
  }

  /** True for any `KnowledgeGraphError`, even from another copy of this package. */
  static is(value: unknown): value is KnowledgeGraphError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
