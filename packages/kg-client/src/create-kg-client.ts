import {
  type CallOptions,
  type HttpClientOptions,
  httpClientOptionsShape,
} from '@dcg/client-transport';
import {
  isSelectResults,
  MAX_SEARCH_LIMIT,
  parseSparqlResults,
  type SearchPage,
  SearchParameters,
  SearchResponseSchema,
  type SparqlResults,
  type SparqlSelectResults,
  schemaIssues,
} from '@dcg/kg-schema';
import * as z from 'zod/mini';
import {
  buildDescribeQuery,
  type ConceptDescription,
  collectDescriptions,
  type DescribeOptions,
  type DescribeVariable,
} from './describe-concepts';
import { createTransport, parseWith, type Transport } from './http-transport';
import { KgClientError, KgResponseError } from './kg-client-error';
import { type SearchOptions, searchQuery } from './search-options';
import { pageSearch, type SearchAllOptions, type SearchPages } from './search-pages';

/**
 * Options of {@link createKgClient}: where the knowledge graph API is, and the transport's limits
 * (`maxResponseBytes`: default 32 MiB).
 */
export type KgClientOptions = HttpClientOptions;

/** Options every call takes; an aborted call rejects with a `KgAbortError`. */
export type { CallOptions };

/** Options of `describe`. */
export interface DescribeCallOptions extends DescribeOptions, CallOptions {}

/** Search and SPARQL over one base path: the internal graph, or one passthrough source. */
export interface KgEndpoint {
  /** One page of IRIs matching `term`, best first. */
  search(term: string, options?: SearchOptions): Promise<SearchPage>;
  /** Every page of a search, requested lazily while iterating. */
  searchAll(term: string, options?: SearchAllOptions): SearchPages;
  /** Runs a SPARQL query; SELECT answers bindings, ASK a boolean. */
  sparql<V extends string = string>(
    query: string,
    options?: CallOptions,
  ): Promise<SparqlResults<V>>;
  /** Runs a SELECT query; rejects with `KgResponseError` if the answer is not bindings. */
  select<V extends string = string>(
    query: string,
    options?: CallOptions,
  ): Promise<SparqlSelectResults<V>>;
  /** Runs an ASK query; rejects with `KgResponseError` if the answer is not a boolean. */
  ask(query: string, options?: CallOptions): Promise<boolean>;
  /**
   * Labels, alternative labels, definitions and broader/narrower/related IRIs of each IRI, in ONE
   * SPARQL call per 100 IRIs; one description per distinct IRI, in the order given.
   */
  describe(iris: readonly string[], options?: DescribeCallOptions): Promise<ConceptDescription[]>;
}

/** The knowledge graph client: the internal graph, plus `source(id)` for passthrough. */
export interface KgClient extends KgEndpoint {
  readonly baseUrl: string;
  /** The same calls, passed through to the upstream source `id` (`/passthrough/{id}/v1/…`). */
  source(id: string): KgEndpoint;
}

const OptionsSchema = z.object({
  ...httpClientOptionsShape(32 * 1024 * 1024),
});

const describeChunk = 100;

/**
 * Creates a typed client of the dcg knowledge graph API (spec part C), for Node and browsers.
 * Responses are validated; failures reject with a `KgClientError` subclass.
 *
 * @example
 * const kg = createKgClient({ baseUrl: 'http://127.0.0.1:8081' });
 * const page = await kg.search('water', { limit: 5 });
 * const [first] = await kg.describe(page.results, { lang: 'en' });
 * console.log(first?.label?.value, first?.broader);
 */
export function createKgClient(options: KgClientOptions): KgClient {
  const { baseUrl, transport } = connect(options);
  return {
    baseUrl,
    ...endpoint(transport, baseUrl, ''),
    source(id: string): KgEndpoint {
      if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
        throw new KgClientError('invalid_argument', `source id ${JSON.stringify(id)} is not valid`);
      }
      return endpoint(transport, baseUrl, `passthrough/${encodeURIComponent(id)}/`);
    },
  };
}

function endpoint(transport: Transport, baseUrl: string, prefix: string): KgEndpoint {
  const sparqlUrl = `${baseUrl}/${prefix}v1/graph/sparql`;
  const search = (term: string, options: SearchOptions = {}): Promise<SearchPage> => {
    const query = searchQuery(term, options);
    if (!query.success) return Promise.reject(invalidArgument('search', query.error));
    return transport({
      method: 'get',
      path: `${prefix}v1/search/query`,
      searchParams: query.data,
      accept: 'application/json',
      retry: 'idempotent',
      signal: options.signal,
      parse: parseWith(SearchResponseSchema),
    });
  };

  const sparql = <V extends string = string>(
    query: string,
    options: CallOptions = {},
  ): Promise<SparqlResults<V>> => {
    if (typeof query !== 'string' || query.trim() === '') {
      return Promise.reject(
        new KgClientError('invalid_argument', 'sparql: query must be a non-empty string'),
      );
    }
    return transport({
      method: 'post',
      path: `${prefix}v1/graph/sparql`,
      // application/sparql-query can only carry a query (updates have their own media type), so
      // the server can never run this as an update: that is what makes retrying it safe.
      body: query,
      contentType: 'application/sparql-query',
      accept: 'application/sparql-results+json',
      retry: 'query',
      signal: options.signal,
      parse: (value) => parseSparqlResults<V>(value),
    });
  };

  const select = async <V extends string = string>(
    query: string,
    options: CallOptions = {},
  ): Promise<SparqlSelectResults<V>> => {
    const results = await sparql<V>(query, options);
    if (!isSelectResults(results)) {
      throw new KgResponseError(sparqlUrl, [
        { path: '$', message: 'expected SELECT results (bindings), got an ASK answer' },
      ]);
    }
    return results;
  };

  const ask = async (query: string, options: CallOptions = {}): Promise<boolean> => {
    const results = await sparql(query, options);
    if (isSelectResults(results)) {
      throw new KgResponseError(sparqlUrl, [
        { path: '$', message: 'expected an ASK answer (boolean), got SELECT results' },
      ]);
    }
    return results.boolean;
  };

  const describe = async (
    iris: readonly string[],
    options: DescribeCallOptions = {},
  ): Promise<ConceptDescription[]> => {
    if (!Array.isArray(iris)) {
      throw new KgClientError('invalid_argument', 'describe: iris must be an array of IRIs');
    }
    const unique = [...new Set(iris)];
    const describeOptions: DescribeOptions =
      options.lang === undefined ? {} : { lang: options.lang };
    // Build every query first so a bad IRI or language tag fails before any request.
    const chunks: { iris: string[]; query: string }[] = [];
    for (let start = 0; start < unique.length; start += describeChunk) {
      const chunk = unique.slice(start, start + describeChunk);
      chunks.push({ iris: chunk, query: buildDescribeQuery(chunk, describeOptions) });
    }
    const descriptions: ConceptDescription[] = [];
    for (const chunk of chunks) {
      const results = await select<DescribeVariable>(
        chunk.query,
        options.signal ? { signal: options.signal } : {},
      );
      descriptions.push(...collectDescriptions(chunk.iris, results, describeOptions));
    }
    return descriptions;
  };

  const searchAll = (term: string, options: SearchAllOptions = {}): SearchPages => {
    const pageSize = options.pageSize ?? MAX_SEARCH_LIMIT;
    const checked = z
      .object({
        term: SearchParameters.term,
        pageSize: SearchParameters.limit,
        maxResults: z.optional(z.int().check(z.gte(1))),
      })
      .safeParse({ term, pageSize, maxResults: options.maxResults });
    if (!checked.success) throw invalidArgument('searchAll', checked.error);
    return pageSearch(
      (offset, limit) =>
        search(term, { offset, limit, ...(options.signal ? { signal: options.signal } : {}) }),
      {
        pageSize,
        ...(options.maxResults === undefined ? {} : { maxResults: options.maxResults }),
      },
    );
  };

  return { search, searchAll, sparql, select, ask, describe };
}

function invalidArgument(call: string, error: z.core.$ZodError): KgClientError {
  const issues = schemaIssues(error.issues);
  return new KgClientError(
    'invalid_argument',
    `${call}: ${issues.map((issue) => `${issue.path.replace(/^\$\.?/, '')}: ${issue.message}`).join('; ')}`,
  );
}

/**
 * The client's validated options as its base URL and transport; invalid options throw a
 * `KgClientError` (`invalid_argument`) naming each one.
 *
 * @example
 * const { baseUrl, transport } = connect({ baseUrl: 'http://127.0.0.1:8081' });
 */
export function connect(options: KgClientOptions): { baseUrl: string; transport: Transport } {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) throw invalidArgument('invalid client options', parsed.error);
  const settings = parsed.data;
  const { baseUrl } = settings;
  const transport = createTransport({
    baseUrl,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    maxResponseBytes: settings.maxResponseBytes,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  return { baseUrl, transport };
}
