import type { SearchPage } from '@dcg/kg-schema';
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
import {
  type PassthroughAnswer,
  type PassthroughOptions,
  passthroughEndpoint,
  passthroughSearch,
  passthroughSparql,
} from './passthrough';
import type { SearchQuery } from './search-query';
import type { SourceConfig } from './source-config';
import type { UpstreamHeaders } from './upstream-credentials';

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
  /** Credentials of each source's upstream, resolved at start-up (see `resolveUpstreamHeaders`). */
  upstreamHeaders?: UpstreamHeaders;
}

/** Options of one {@link GraphQueries.query} call. */
export interface QueryOptions {
  /** Ends the query with `query_aborted` (or the upstream call). */
  signal?: AbortSignal;
  /** Time left for parsing and evaluation over the ingested graphs, else `query_timeout`. */
  timeoutMs?: number;
}

/** Options of a call to a source's upstream (passthrough). */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  /** The id of the request being served, sent upstream as `X-Request-Id` so logs join up. */
  requestId?: string;
}

/** Options of a query passed through to a source's upstream SPARQL endpoint. */
export interface SourceQueryOptions extends QueryOptions, UpstreamCallOptions {
  /** The source whose SPARQL endpoint answers (passthrough). */
  source: string;
  /**
   * The client's `Accept`: its ranges of the results and RDF types passthrough forwards go
   * upstream (none: SPARQL JSON, or Turtle for CONSTRUCT / DESCRIBE); `not_acceptable` when it
   * allows none of them.
   */
  accept?: string | undefined;
  /**
   * The RDF dataset parameters the request names (`default-graph-uri`, `named-graph-uri`):
   * `dataset_unsupported` when any, as the source's configured dataset is the only one queried.
   */
  datasetParameters?: readonly string[];
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
 * endpoint (read-only: an update never leaves the service; the answer keeps the upstream's
 * media type), and search at a source. Upstream calls carry the source's credentials and the
 * request id. Every failure is a {@link KnowledgeGraphError} with a stable code.
 *
 * @example
 * const queries = new GraphQueries(kb, { limits: DEFAULT_QUERY_LIMITS, maxRows: 10_000, maxBlockMs: 200, passthrough: { timeoutMs: 10_000, maxResponseBytes: 5e7 } });
 * const results = await queries.query('SELECT * WHERE { ?s ?p ?o } LIMIT 1', { timeoutMs: 5_000 });
 * const upstream = await queries.query('ASK { ?s ?p ?o }', { source: 'thesaurus', accept: 'application/sparql-results+xml' });
 * // upstream: { contentType: 'application/sparql-results+xml; charset=utf-8', body: '<?xml …' }
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
   * `passthrough_disabled`, `no_base_url`, `dataset_unsupported`, `not_acceptable` and the
   * `upstream_*` codes.
   */
  query(text: string, options?: QueryOptions): Promise<IngestedSparqlResults>;
  query(text: string, options: SourceQueryOptions): Promise<PassthroughAnswer>;
  query(
    text: string,
    options: QueryOptions | SourceQueryOptions = {},
  ): Promise<IngestedSparqlResults | PassthroughAnswer> {
    if ('source' in options) return this.#queryAtSource(text, options);
    return this.#queryIngested(text, options);
  }

  /**
   * The source, when its SPARQL (or search) can be passed through to: `unknown_source`,
   * `passthrough_disabled` or `no_base_url` otherwise. Lets a caller refuse a request before
   * reading its body.
   */
  passthroughSource(sourceId: string, kind: 'sparql' | 'search' = 'sparql'): SourceConfig {
    const source = this.#kb.source(sourceId);
    passthroughEndpoint(source, kind);
    return source;
  }

  /** Forwards a search to a source's own search API; the answer is checked before it is returned. */
  async searchAtSource(
    sourceId: string,
    query: SearchQuery,
    options: UpstreamCallOptions = {},
  ): Promise<SearchPage> {
    return passthroughSearch(this.#kb.source(sourceId), query, this.#upstream(sourceId, options));
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

  async #queryAtSource(text: string, options: SourceQueryOptions): Promise<PassthroughAnswer> {
    const source = this.passthroughSource(options.source);
    const dataset = options.datasetParameters ?? [];
    if (dataset.length > 0) {
      // A client's own dataset would reach graphs the configuration does not name.
      throw new KnowledgeGraphError(
        'dataset_unsupported',
        `${dataset.join(' and ')} cannot be passed through: a passthrough query runs over the dataset configured for the source (its defaultGraphUri, or the upstream's default graph). Leave the parameter out, or name graphs with FROM / GRAPH in the query.`,
      );
    }
    // Read-only: an upstream that permits updates would run one, and LOAD would make it fetch
    // any URL.
    const updates = findUpdateOperations(text);
    if (updates.length > 0) throw queryRejected(updates);
    return passthroughSparql(source, text, {
      ...this.#upstream(source.id, options),
      accept: options.accept,
    });
  }

  #upstream(sourceId: string, options: UpstreamCallOptions): PassthroughOptions {
    const headers = this.#settings.upstreamHeaders?.get(sourceId);
    return {
      ...this.#settings.passthrough,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
      ...(headers ? { headers } : {}),
    };
  }
}

/**
 * The `query_rejected` error of a query refused by its text, listing its problems.
 *
 * @example
 * throw queryRejected([{ code: 'UPDATE_NOT_SUPPORTED', message: 'the knowledge graph is read-only' }]);
 */
export function queryRejected(problems: KnowledgeGraphError['issues']): KnowledgeGraphError {
  return new KnowledgeGraphError(
    'query_rejected',
    problems.map((p) => `${p.code}: ${p.message}`).join('; '),
    { issues: problems },
  );
}
