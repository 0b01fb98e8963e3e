import {
  parseSparqlResults,
  type SearchPage as SearchResponse,
  SearchResponseSchema,
  type SparqlResults,
} from '@dcg/kg-schema';
import { KnowledgeGraphError } from './errors';
import { readCapped } from './read-capped';
import type { SearchQuery } from './search-query';
import type { SourceConfig } from './source-config';

/** Options of the passthrough calls. */
export interface PassthroughOptions {
  /** Upstream deadline for the whole exchange, body included. */
  timeoutMs: number;
  /** Largest upstream answer accepted, in bytes. */
  maxResponseBytes: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * The endpoints passthrough uses for a source, all from configuration (never from a request):
 * `searchEndpoint` / `sparqlEndpoint` when set, else `{baseUrl}/v1/search/query` and
 * `{baseUrl}/v1/graph/sparql`. Throws `passthrough_disabled` or `no_base_url`.
 *
 * @example
 * passthroughEndpoints(source).sparql; // 'https://upstream.example/v1/graph/sparql'
 */
export function passthroughEndpoints(source: SourceConfig): { search: string; sparql: string } {
  if (!source.modes.passthrough.enabled) {
    throw new KnowledgeGraphError(
      'passthrough_disabled',
      `passthrough is not enabled for source "${source.id}"`,
    );
  }
  const base = source.baseUrl?.replace(/\/+$/, '');
  const search = source.searchEndpoint ?? (base ? `${base}/v1/search/query` : undefined);
  const sparql = source.sparqlEndpoint ?? (base ? `${base}/v1/graph/sparql` : undefined);
  if (!search || !sparql) {
    throw new KnowledgeGraphError(
      'no_base_url',
      `source "${source.id}" has no baseUrl (nor searchEndpoint and sparqlEndpoint) to pass through to`,
    );
  }
  return { search, sparql };
}

/**
 * Forwards a search to the source's own search API and checks its answer.
 *
 * @example
 * const page = await passthroughSearch(source, { term: 'water', offset: 0, limit: 10 }, { timeoutMs: 10_000, maxResponseBytes: 1e6 });
 */
export async function passthroughSearch(
  source: SourceConfig,
  query: SearchQuery,
  options: PassthroughOptions,
): Promise<SearchResponse> {
  const url = new URL(passthroughEndpoints(source).search);
  url.searchParams.set('term', query.term);
  url.searchParams.set('offset', String(query.offset));
  url.searchParams.set('limit', String(query.limit));
  const body = await exchange(
    source,
    url.toString(),
    { method: 'GET', headers: { accept: 'application/json' } },
    options,
  );
  const parsed = SearchResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${source.id}" answered a search response of the wrong shape: ${parsed.error.issues[0]?.message ?? ''} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
    );
  }
  return parsed.data;
}

/**
 * Forwards a SPARQL query to the source's SPARQL endpoint with the form encoding (which every
 * SPARQL 1.1 server accepts, Virtuoso included), adding `default-graph-uri` when configured, and
 * checks that the answer is SPARQL JSON results.
 *
 * @example
 * const results = await passthroughSparql(source, 'SELECT * WHERE { ?s ?p ?o } LIMIT 1', { timeoutMs: 10_000, maxResponseBytes: 5e7 });
 */
export async function passthroughSparql(
  source: SourceConfig,
  query: string,
  options: PassthroughOptions,
): Promise<SparqlResults> {
  const form = new URLSearchParams({ query });
  if (source.defaultGraphUri) form.set('default-graph-uri', source.defaultGraphUri);
  const body = await exchange(
    source,
    passthroughEndpoints(source).sparql,
    {
      method: 'POST',
      headers: {
        accept: 'application/sparql-results+json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    },
    options,
  );
  const parsed = parseSparqlResults(body);
  if (!parsed.success) {
    const first = parsed.issues[0];
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${source.id}" answered something that is not SPARQL JSON results${first ? ` (${first.path}: ${first.message})` : ''}`,
    );
  }
  return parsed.data;
}

async function exchange(
  source: SourceConfig,
  url: string,
  init: RequestInit,
  options: PassthroughOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const doFetch = options.fetch ?? fetch;
  const fail = (error: unknown): never => {
    if (KnowledgeGraphError.isInstance(error)) throw error;
    if (timeout.aborted) {
      throw new KnowledgeGraphError(
        'upstream_timeout',
        `source "${source.id}" did not answer within ${options.timeoutMs} ms`,
        { cause: error },
      );
    }
    throw new KnowledgeGraphError('upstream_error', `source "${source.id}" could not be reached`, {
      cause: error,
    });
  };
  try {
    // Redirects are refused: they would let the upstream send us to a URL not configured.
    const response = await doFetch(url, { ...init, signal, redirect: 'error' });
    const text = await readCapped(response, options.maxResponseBytes, source.id);
    if (response.status === 400) {
      throw new KnowledgeGraphError(
        'upstream_rejected',
        `source "${source.id}" rejected the request: ${summarise(text)}`,
      );
    }
    if (!response.ok) {
      throw new KnowledgeGraphError(
        'upstream_error',
        `source "${source.id}" answered HTTP ${response.status}`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new KnowledgeGraphError(
        'upstream_malformed',
        `source "${source.id}" answered something that is not JSON`,
      );
    }
  } catch (error) {
    return fail(error);
  }
}

// Upstream text is shown only short and printable: it is not trusted.
function summarise(text: string): string {
  let detail = text;
  try {
    const json = JSON.parse(text) as { detail?: unknown; title?: unknown; message?: unknown };
    detail = String(json.detail ?? json.title ?? json.message ?? text);
  } catch {}
  return detail.replace(/[^\x20-\x7E\u00A0-\uFFFF]+/g, ' ').slice(0, 300);
}
