import type { SearchPage, SparqlResults } from '@dcg/kg-schema';
import {
  evaluate,
  findUpdateOperations,
  type SparqlResults as IngestedSparqlResults,
  parseQuery,
  type QueryLimits,
  SparqlSubsetError,
  type SparqlSubsetErrorCode,
} from '@dcg/sparql-subset';
import { KnowledgeGraphError, type KnowledgeGraphErrorCode } from './errors';
import type { KnowledgeBase } from './knowledge-base';
import { passthroughEndpoints, passthroughSearch, passthroughSparql } from './passthrough';
import type { SearchQuery } from './search-query';
import type { SourceConfig } from './source-config';

/** Settings of {@link GraphQueries}, from configuration. */
export interface GraphQueriesSettings {
  /** Queries over the ingested graphs: limits on the text, checked before parsing… */
  limits: QueryLimits;
  /** …the most rows an answer may have… */
  maxRows: number;
  /** …and the longest stretch an evaluation may hold the event loop (an EXISTS per row). */
  maxBlockMs: number;
  /** Passthrough: the upstream deadline, body included, and the largest answer accepted. */
  passthrough: { timeoutMs: number; maxResponseBytes: number };
}

/** Options of one {@link GraphQueries.query} call. */
export interface QueryOptions {
  /** Ends the query with `query_aborted` (or the upstream call). */
  signal?: AbortSignal;
  /** Time left for parsing and evaluation over the ingested graphs, else `query_timeout`. */
  timeoutMs?: number;
}

/** Options of a query passed through to a source's upstream SPARQL endpoint. */
export interface SourceQueryOptions extends QueryOptions {
  /** The source whose SPARQL endpoint answers (passthrough). */
  source: string;
}

const CODE_OF_SUBSET_ERROR: Partial<Record<SparqlSubsetErrorCode, KnowledgeGraphErrorCode>> = {
  timeout: 'query_timeout',
  row_limit_exceeded: 'row_limit_exceeded',
  too_expensive: 'query_too_expensive',
  aborted: 'query_aborted',
};

/**
 * The read use cases of the knowledge graph: SPARQL over the union of the ingested graphs (the
 * supported subset, within the configured limits), or passed through to a source's upstream
 * endpoint (read-only: an update never leaves the service), and search at a source. Every
 * failure is a {@link KnowledgeGraphError} with a stable code.
 *
 * @example
 * const queries = new GraphQueries(kb, { limits: DEFAULT_QUERY_LIMITS, maxRows: 10_000, maxBlockMs: 200, passthrough: { timeoutMs: 10_000, maxResponseBytes: 5e7 } });
 * const results = await queries.query('SELECT * WHERE { ?s ?p ?o } LIMIT 1', { timeoutMs: 5_000 });
 * const upstream = await queries.query('ASK { ?s ?p ?o }', { source: 'thesaurus' });
 */
export class GraphQueries {
  readonly #kb: KnowledgeBase;
  readonly #settings: GraphQueriesSettings;

  constructor(kb: KnowledgeBase, settings: GraphQueriesSettings) {
    this.#kb = kb;
    this.#settings = settings;
  }

  /**
   * Runs a SPARQL query over the ingested graphs, or at `options.source`. Throws
   * `query_rejected` (with `problems`), `query_timeout`, `row_limit_exceeded`,
   * `query_too_expensive`, `query_aborted`; at a source also `unknown_source`,
   * `passthrough_disabled`, `no_base_url` and the `upstream_*` codes.
   */
  query(text: string, options?: QueryOptions): Promise<IngestedSparqlResults>;
  query(text: string, options: SourceQueryOptions): Promise<SparqlResults>;
  query(text: string, options: QueryOptions & { source?: string } = {}): Promise<SparqlResults> {
    if (options.source !== undefined) return this.#queryAtSource(options.source, text, options);
    return this.#queryIngested(text, options);
  }

  /**
   * The source, when it can be passed through to: `unknown_source`, `passthrough_disabled` or
   * `no_base_url` otherwise. Lets a caller refuse a request before reading its body.
   */
  passthroughSource(sourceId: string): SourceConfig {
    const source = this.#kb.source(sourceId);
    passthroughEndpoints(source);
    return source;
  }

  /** Forwards a search to a source's own search API; the answer is checked before it is returned. */
  async searchAtSource(
    sourceId: string,
    query: SearchQuery,
    signal?: AbortSignal,
  ): Promise<SearchPage> {
    return passthroughSearch(this.passthroughSource(sourceId), query, this.#upstream(signal));
  }

  async #queryIngested(text: string, options: QueryOptions): Promise<IngestedSparqlResults> {
    const { limits, maxRows, maxBlockMs } = this.#settings;
    const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    const parsed = parseQuery(text, { limits });
    if (!parsed.success) throw queryRejected(parsed.problems);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new KnowledgeGraphError('query_timeout', 'the query ran out of time');
    try {
      return await evaluate(parsed.query, this.#kb.stores(), {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(Number.isFinite(remaining) ? { timeoutMs: remaining } : {}),
        maxRows,
        maxBlockMs,
      });
    } catch (error) {
      const code = SparqlSubsetError.isInstance(error)
        ? CODE_OF_SUBSET_ERROR[error.code]
        : undefined;
      if (code === undefined) throw error;
      throw new KnowledgeGraphError(code, (error as Error).message, { cause: error });
    }
  }

  async #queryAtSource(
    sourceId: string,
    text: string,
    options: QueryOptions,
  ): Promise<SparqlResults> {
    const source = this.passthroughSource(sourceId);
    // Read-only: an upstream that permits updates would run one, and LOAD would make it fetch
    // any URL.
    const updates = findUpdateOperations(text);
    if (updates.length > 0) throw queryRejected(updates);
    return passthroughSparql(source, text, this.#upstream(options.signal));
  }

  #upstream(signal: AbortSignal | undefined) {
    return { ...this.#settings.passthrough, ...(signal ? { signal } : {}) };
  }
}

/**
 * The `query_rejected` error of a query refused by its text, listing its problems.
 *
 * @example
 * throw queryRejected([{ code: 'UPDATE_NOT_SUPPORTED', message: 'the knowledge graph is read-only' }]);
 */
export function queryRejected(problems: KnowledgeGraphError['problems']): KnowledgeGraphError {
  return new KnowledgeGraphError(
    'query_rejected',
    problems.map((p) => `${p.code}: ${p.message}`).join('; '),
    { problems },
  );
}
