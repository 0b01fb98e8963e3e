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
  /** Headers every call to this source carries: its credentials (see `resolveUpstreamHeaders`). */
  headers?: Readonly<Record<string, string>>;
  /** The id of the request being served, sent as `X-Request-Id` so logs on both sides join up. */
  requestId?: string;
}

/**
 * The upstream URL passthrough calls for a source, from configuration only (never from a
 * request): `searchEndpoint` / `sparqlEndpoint` when set, else `{baseUrl}/v1/search/query` and
 * `{baseUrl}/v1/graph/sparql`. Throws `passthrough_disabled`, or `no_base_url` when the source
 * has no URL for that interface: a plain SPARQL server (only `sparqlEndpoint`) has no search API,
 * and passthrough search follows the upstream's own search semantics (spec C, rule 2), so it is
 * not emulated with a SPARQL query.
 *
 * @example
 * passthroughEndpoint(source, 'sparql'); // 'https://upstream.example/v1/graph/sparql'
 */
export function passthroughEndpoint(source: SourceConfig, kind: 'search' | 'sparql'): string {
  if (!source.modes.passthrough.enabled) {
    throw new KnowledgeGraphError(
      'passthrough_disabled',
      `passthrough is not enabled for source "${source.id}"`,
    );
  }
  const base = source.baseUrl?.replace(/\/+$/, '');
  if (kind === 'sparql') {
    const sparql = source.sparqlEndpoint ?? (base ? `${base}/v1/graph/sparql` : undefined);
    if (sparql) return sparql;
    throw new KnowledgeGraphError(
      'no_base_url',
      `source "${source.id}" has neither a baseUrl nor a sparqlEndpoint to pass SPARQL through to`,
    );
  }
  const search = source.searchEndpoint ?? (base ? `${base}/v1/search/query` : undefined);
  if (search) return search;
  throw new KnowledgeGraphError(
    'no_base_url',
    `source "${source.id}" has no search API to pass search through to (neither baseUrl nor searchEndpoint)${source.sparqlEndpoint ? '; it is a SPARQL endpoint: use passthrough SPARQL' : ''}`,
  );
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
  const url = new URL(passthroughEndpoint(source, 'search'));
  url.searchParams.set('term', query.term);
  url.searchParams.set('offset', String(query.offset));
  url.searchParams.set('limit', String(query.limit));
  const answer = await exchange(
    source,
    url.toString(),
    { method: 'GET', headers: { accept: 'application/json' } },
    options,
  );
  const parsed = SearchResponseSchema.safeParse(parseJson(source, answer.text));
  if (!parsed.success) {
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${source.id}" answered a search response of the wrong shape: ${parsed.error.issues[0]?.message ?? ''} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
    );
  }
  return parsed.data;
}

/** An upstream SPARQL answer as passed on: its media type and its (size-capped, UTF-8) text. */
export interface PassthroughAnswer {
  contentType: string;
  body: string;
  /** The results, checked, when the upstream answered SPARQL JSON (absent for other types). */
  results?: SparqlResults;
}

/**
 * Forwards a SPARQL query to the source's SPARQL endpoint with the form encoding (which every
 * SPARQL 1.1 server accepts, Virtuoso included), adding `default-graph-uri` when configured.
 * `accept` (the client's) goes upstream as is; without one, SPARQL JSON results are asked for, or
 * Turtle for a CONSTRUCT or DESCRIBE. The answer keeps the upstream's media type, from a fixed
 * list of results and RDF types; SPARQL JSON is checked, other types are passed on unread.
 *
 * @example
 * const answer = await passthroughSparql(source, 'SELECT * WHERE { ?s ?p ?o } LIMIT 1', { timeoutMs: 10_000, maxResponseBytes: 5e7 });
 */
export async function passthroughSparql(
  source: SourceConfig,
  query: string,
  options: PassthroughOptions & { accept?: string | undefined },
): Promise<PassthroughAnswer> {
  const form = new URLSearchParams({ query });
  if (source.defaultGraphUri) form.set('default-graph-uri', source.defaultGraphUri);
  const accept = upstreamAccept(source, options.accept, query);
  const answer = await exchange(
    source,
    passthroughEndpoint(source, 'sparql'),
    {
      method: 'POST',
      headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    options,
    accept,
  );
  // An upstream that names no type is taken at its word of old: SPARQL JSON.
  const type = answer.contentType || 'application/sparql-results+json';
  if (SPARQL_JSON_TYPES.has(type)) {
    const parsed = parseSparqlResults(parseJson(source, answer.text));
    if (!parsed.success) {
      const first = parsed.issues[0];
      throw new KnowledgeGraphError(
        'upstream_malformed',
        `source "${source.id}" answered something that is not SPARQL JSON results${first ? ` (${first.path}: ${first.message})` : ''}`,
      );
    }
    return {
      contentType: 'application/sparql-results+json',
      body: answer.text,
      results: parsed.data,
    };
  }
  if (!FORWARDED_TYPES.has(type)) {
    // Anything else (text/html above all) would be served from this origin: refused.
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${source.id}" answered ${summarise(type)}, which passthrough does not forward (SPARQL results or RDF only)`,
    );
  }
  return { contentType: `${type}; charset=utf-8`, body: answer.text };
}

/** SPARQL JSON results, checked before they are passed on. */
const SPARQL_JSON_TYPES = new Set(['application/sparql-results+json', 'application/json']);

/** Media types of SPARQL results (besides JSON) and of RDF that passthrough passes on. */
const FORWARDED_TYPES = new Set([
  'application/sparql-results+xml',
  'application/xml',
  'text/xml',
  'text/csv',
  'text/tab-separated-values',
  'text/turtle',
  'application/n-triples',
  'text/plain',
  'application/n-quads',
  'application/trig',
  'application/ld+json',
  'application/rdf+xml',
]);

// CONSTRUCT and DESCRIBE answer a graph, the other forms a results table. Prologue and comments
// are skipped to find the form; a text this misreads still gets an answer, in the other type.
const GRAPH_FORM =
  /^(?:\s+|#[^\n]*|PREFIX\s*[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)*(?:CONSTRUCT|DESCRIBE)\b/i;

/**
 * What passthrough asks the upstream for: the client's media ranges that name a type it forwards
 * (with their q-values), else the default for the query form. A client that accepts none of
 * them, not even through a wildcard, gets `not_acceptable` before anything is sent; a browser's
 * `text/html, …, application/xml;q=0.9, *\/*;q=0.8` asks for XML results.
 */
function upstreamAccept(source: SourceConfig, accept: string | undefined, query: string): string {
  if (!accept?.trim()) return defaultSparqlAccept(query);
  const ranges = accept.split(',').map((range) => range.trim());
  const essence = (range: string) => range.split(';')[0]?.trim().toLowerCase() ?? '';
  const forwarded = ranges.filter((range) => {
    const type = essence(range);
    return SPARQL_JSON_TYPES.has(type) || FORWARDED_TYPES.has(type);
  });
  if (forwarded.length > 0) return forwarded.join(', ');
  if (ranges.some((range) => /^(?:\*|application|text)\/\*$/.test(essence(range)))) {
    return defaultSparqlAccept(query);
  }
  throw new KnowledgeGraphError(
    'not_acceptable',
    `passthrough to source "${source.id}" answers SPARQL results (${[...SPARQL_JSON_TYPES][0]}, application/sparql-results+xml, text/csv, text/tab-separated-values) or RDF (text/turtle, application/n-triples, application/ld+json, application/rdf+xml…), none of which Accept: ${summarise(accept)} allows`,
  );
}

function defaultSparqlAccept(query: string): string {
  return GRAPH_FORM.test(query)
    ? 'text/turtle, application/n-triples;q=0.9'
    : 'application/sparql-results+json';
}

function parseJson(source: SourceConfig, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `source "${source.id}" answered something that is not JSON`,
    );
  }
}

async function exchange(
  source: SourceConfig,
  url: string,
  init: RequestInit & { headers: Record<string, string> },
  options: PassthroughOptions,
  accept?: string,
): Promise<{ contentType: string; text: string }> {
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
  const headers = {
    ...options.headers,
    ...init.headers,
    ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
  };
  try {
    // Redirects are refused: they would let the upstream send us (and the credentials) to a URL
    // not configured.
    const response = await doFetch(url, { ...init, headers, signal, redirect: 'error' });
    const text = await readCapped(response, options.maxResponseBytes, source.id);
    if (response.status === 400) {
      throw new KnowledgeGraphError(
        'upstream_rejected',
        `source "${source.id}" rejected the request: ${summarise(withoutSecrets(text, options.headers))}`,
      );
    }
    if (response.status === 406 && accept) {
      throw new KnowledgeGraphError(
        'not_acceptable',
        `source "${source.id}" cannot answer in the types asked for (Accept: ${summarise(accept)})`,
      );
    }
    if (!response.ok) {
      throw new KnowledgeGraphError(
        'upstream_error',
        `source "${source.id}" answered HTTP ${response.status}`,
      );
    }
    const contentType =
      response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    return { contentType, text };
  } catch (error) {
    return fail(error);
  }
}

// An upstream that echoes the request in its error would put our credentials in a problem and
// a log line: each header value, and its last word (a token without its scheme), is blanked.
function withoutSecrets(text: string, headers: PassthroughOptions['headers']): string {
  let clean = text;
  for (const value of Object.values(headers ?? {})) {
    for (const secret of [value, value.split(' ').at(-1) ?? '']) {
      if (secret.length >= 4) clean = clean.replaceAll(secret, '[REDACTED]');
    }
  }
  return clean;
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
