import type { EmbeddingProvider } from './embedding-provider';
import { MarketplaceSearchError } from './errors';

/** Limits of {@link QueryEmbeddings}. */
export interface QueryEmbeddingsOptions {
  /** Longest wait for a query's embedding (default 5 s). */
  timeoutMs?: number | undefined;
  /** Query vectors kept, least recently used dropped first (default 1,000). */
  cacheSize?: number | undefined;
  /** Queries being embedded at once (default 8); one more is refused at once. */
  maxConcurrent?: number | undefined;
}

/**
 * The embeddings of search queries: cached (people repeat queries), bounded in time, and at most
 * `maxConcurrent` at once, so that a flood of new queries cannot queue unbounded work on the
 * model; a query beyond the cap fails with `search_unavailable` and the search answers lexically.
 *
 * @example
 * const queries = new QueryEmbeddings(provider, { timeoutMs: 5000 });
 * const vector = await queries.vectorOf('customer invoices');
 */
export class QueryEmbeddings {
  private readonly cache = new Map<string, Float32Array>();
  private running = 0;

  constructor(
    private readonly provider: EmbeddingProvider,
    private readonly options: QueryEmbeddingsOptions = {},
  ) {}

  async vectorOf(q: string): Promise<Float32Array> {
    const cached = this.cache.get(q);
    if (cached) {
      // Moved to the end: the cache drops the least recently used first.
      this.cache.delete(q);
      this.cache.set(q, cached);
      return cached;
    }
    if (this.running >= (this.options.maxConcurrent ?? 8)) {
      throw new MarketplaceSearchError(
        'search_unavailable',
        'too many searches are being embedded at once',
      );
    }
    this.running++;
    let vector: Float32Array | undefined;
    try {
      [vector] = await this.provider.embed([q], {
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
        priority: 'query',
      });
    } finally {
      this.running--;
    }
    if (!vector)
      throw new MarketplaceSearchError('provider_bad_response', 'no vector for the query');
    this.cache.set(q, vector);
    if (this.cache.size > (this.options.cacheSize ?? 1000)) {
      this.cache.delete(this.cache.keys().next().value as string);
    }
    return vector;
  }
}
