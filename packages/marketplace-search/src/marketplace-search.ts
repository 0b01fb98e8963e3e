import type {
  EmbeddingJob,
  EmbeddingsStatus,
  MarketplaceSearchQuery,
  SearchResult,
} from '@dcg/governance-schema';
import { MAX_SEARCH_OFFSET } from '@dcg/governance-schema';
import { EmbeddingJobs } from './embedding-jobs';
import type { EmbeddingProvider } from './embedding-provider';
import type { EmbeddingStore } from './embedding-store';
import type { InstanceContracts } from './hit-contracts';
import { HybridIndex } from './hybrid-index';
import { IndexSync, type InstanceSource } from './index-sync';
import { InstanceEmbedder } from './instance-embedder';
import type { SearchableInstance } from './instance-text';
import { LastFailure, type SearchLogger } from './last-failure';
import { QueryEmbeddings } from './query-embeddings';
import type { Thesaurus } from './query-expansion';
import { searchHit } from './search-hit';

/**
 * Options of {@link MarketplaceSearch}.
 *
 * @example
 * const options: MarketplaceSearchOptions = { store, provider: createLocalEmbedder(), source };
 */
export interface MarketplaceSearchOptions {
  store: EmbeddingStore;
  /** The embedding model; null when embeddings search is disabled (lexical search only). */
  provider: EmbeddingProvider | null;
  source: InstanceSource;
  /**
   * The data contracts of instances with their states, and each instance's roll-up, for the
   * compliance filter and the hits; keyed by `instanceKey(environment, systemId)`.
   */
  contractsOf?: (
    instances: readonly { environment: string; systemId: string }[],
  ) => Promise<Map<string, InstanceContracts>>;
  /**
   * How long a `createEmbeddings` job holds its environment's lease in the store without renewing
   * it (default 60 s; renewed every third of it while the job runs). Processes sharing one
   * database run one job per environment: a second request anywhere answers the running job; a
   * job whose process died is taken over once its lease expires.
   */
  jobLeaseMs?: number;
  /** Instances per provider call while rebuilding (default 32). */
  batchSize?: number;
  /** Wait before embedding pending instances again after a provider failure (default 30 s). */
  retryDelayMs?: number;
  /** Longest wait for a query's embedding before answering lexically (default 5 s). */
  queryTimeoutMs?: number;
  /**
   * Vector hits below this cosine similarity do not enter the ranking, so a query about nothing in
   * the marketplace gets no hits "by meaning" and the fusion is not padded with noise. Default: the
   * provider's `minSimilarity` (0.3 for the local embedder), else none.
   */
  minVectorSimilarity?: number;
  /**
   * Synonyms for query words no instance uses (e.g. `createWordNetThesaurus()` from `./node`),
   * weighted below the words typed; none by default. Closed with the search.
   */
  thesaurus?: Thesaurus;
  /** Query vectors kept (default 1,000). */
  queryCacheSize?: number;
  /**
   * Queries being embedded at once (default 8); a search beyond it answers lexically and says so,
   * so a flood of new queries cannot queue unbounded work on the model.
   */
  maxConcurrentQueryEmbeddings?: number;
  /**
   * Re-read the instances this often (ms; 0, the default: never), for several processes sharing
   * one store: deploys run by another process are indexed (and embedded if their text is new
   * here), undeploys forgotten.
   */
  refreshIntervalMs?: number;
  logger?: SearchLogger;
}

/**
 * The marketplace search, a facade over its parts: the {@link HybridIndex} (lexical and vector
 * indexes, fused ranking), the {@link IndexSync} (loading, deploys and undeploys, refresh,
 * background embedding of what is pending), the {@link EmbeddingJobs} (`createEmbeddings`, leased
 * per environment across processes) and the {@link InstanceEmbedder} (provider calls one at a time,
 * vectors stored durably). A provider outage never fails a deploy: the instance stays pending and
 * is embedded later.
 *
 * @example
 * const search = new MarketplaceSearch({ store, provider: createLocalEmbedder(), source });
 * await search.start();
 * const result = await search.search({ q: 'customer invoices', limit: 10, offset: 0 });
 */
export class MarketplaceSearch {
  private readonly index: HybridIndex;
  private readonly failures: LastFailure;
  private readonly embedder: InstanceEmbedder | null;
  private readonly queries: QueryEmbeddings | null;
  private readonly sync: IndexSync;
  private readonly jobs: EmbeddingJobs;

  constructor(private readonly options: MarketplaceSearchOptions) {
    const { provider, store } = options;
    const batchSize = options.batchSize ?? 32;
    this.index = new HybridIndex(provider?.dimensions ?? null);
    this.failures = new LastFailure(options.logger);
    this.embedder = provider ? new InstanceEmbedder(provider, store, this.index) : null;
    this.queries = provider
      ? new QueryEmbeddings(provider, {
          timeoutMs: options.queryTimeoutMs,
          cacheSize: options.queryCacheSize,
          maxConcurrent: options.maxConcurrentQueryEmbeddings,
        })
      : null;
    this.jobs = new EmbeddingJobs({
      store,
      index: this.index,
      embedder: this.embedder,
      model: provider?.model ?? null,
      failures: this.failures,
      leaseMs: options.jobLeaseMs ?? 60_000,
      batchSize,
      onJobEnded: () => this.sync.embedPending(),
      logger: options.logger,
    });
    this.sync = new IndexSync({
      source: options.source,
      store,
      index: this.index,
      embedder: this.embedder,
      model: provider ? { name: provider.model, dimensions: provider.dimensions } : null,
      failures: this.failures,
      busyEnvironments: () => this.jobs.runningEnvironments(),
      batchSize,
      retryDelayMs: options.retryDelayMs ?? 30_000,
      refreshIntervalMs: options.refreshIntervalMs ?? 0,
    });
  }

  /** The model of the vectors, or null when disabled. */
  get model(): string | null {
    return this.options.provider?.model ?? null;
  }

  /**
   * Loads every instance and the stored embeddings of the current model, resumes jobs a stop
   * interrupted, and starts embedding what is missing or stale in the background.
   */
  async start(): Promise<void> {
    await this.sync.start();
    if (!this.embedder) return;
    await this.jobs.start();
    this.options.logger?.info('marketplace search started', {
      instances: this.index.size,
      embedded: this.index.embeddedCount,
      pending: this.index.pending.size,
      model: this.model,
    });
    this.sync.embedPending();
  }

  /** An instance was deployed (or redeployed): indexed at once, embedded when its text changed. */
  onDeployed(instance: SearchableInstance): Promise<void> {
    return this.sync.onDeployed(instance);
  }

  /** An instance was undeployed: gone from both indexes and from the store. */
  onUndeployed(systemId: string, environment: string): Promise<void> {
    return this.sync.onUndeployed(systemId, environment);
  }

  /**
   * Re-reads the instances: new or redeployed ones are indexed (and embedded when their text has no
   * current embedding here), ones no longer deployed forgotten.
   */
  refresh(): Promise<{ indexed: number; forgotten: number }> {
    return this.sync.refresh();
  }

  /**
   * Starts embedding every instance of the environment with the current model (needed after a
   * model change); answers the job at once. While one runs for the environment, in this process
   * or another one on the same store, answers that one.
   */
  createEmbeddings(environment: string): Promise<EmbeddingJob> {
    return this.jobs.create(environment);
  }

  /** A job by id (running ones with their live progress). */
  getJob(id: string): Promise<EmbeddingJob | null> {
    return this.jobs.get(id);
  }

  /** Jobs of an environment, newest first. */
  listJobs(environment?: string): Promise<EmbeddingJob[]> {
    return this.jobs.list(environment);
  }

  /**
   * Calls `listener` with each embedding job this process finishes (`completed` or `failed`; a job
   * stopped by a shutdown is resumed later and not finished). Answers the unsubscribe.
   *
   * @example
   * search.onJobFinished((job) => jobs.inc({ status: job.status }));
   */
  onJobFinished(listener: (job: EmbeddingJob) => void): () => void {
    return this.jobs.onFinished(listener);
  }

  async status(environment?: string): Promise<EmbeddingsStatus> {
    const { instances, embedded } = this.index.counts(environment);
    const counts = await this.options.store.countByModel();
    const otherModels = Object.fromEntries(
      Object.entries(counts).filter(([m]) => m !== this.model),
    );
    return {
      enabled: this.options.provider !== null,
      model: this.model,
      dimensions: this.options.provider?.dimensions ?? null,
      instances,
      embedded,
      pending: this.index.pending.countIn(environment),
      otherModels,
      lastError: this.failures.current,
      runningJobs: await this.jobs.listRunning(environment),
    };
  }

  /**
   * Hybrid search (see {@link HybridIndex.rank}) over every environment unless the query names
   * one, filtered by kind and compliance; one page of hits from `offset`, `nextOffset` when more
   * follow. Lexical only, and says why, while embeddings are disabled, missing, or the provider
   * fails.
   */
  async search(
    query: Omit<MarketplaceSearchQuery, 'offset'> & { offset?: number | undefined },
  ): Promise<SearchResult> {
    const { q, environment, limit } = query;
    const offset = query.offset ?? 0;
    const filtering = (query.kind?.length ?? 0) > 0 || (query.compliance?.length ?? 0) > 0;
    // One more than the page, to know whether another page follows.
    const window = offset + limit + 1;
    const pending = this.index.pending.countIn(environment);
    const { provider, thesaurus } = this.options;
    const queries = this.queries;
    const ranking = await this.index.rank(q, {
      environment,
      candidates: Math.max(50, window * (filtering ? 10 : 3)),
      kinds: query.kind,
      queryVector: queries ? (text) => queries.vectorOf(text) : undefined,
      minSimilarity: this.options.minVectorSimilarity ?? provider?.minSimilarity,
      meaningCut: provider?.meaningCut,
      synonyms: thesaurus && ((word) => thesaurus.synonyms(word)),
      onProviderError: (error) => this.failures.record(error),
    });
    let ranked = ranking.hits;
    let contracts: Map<string, InstanceContracts> | undefined;
    if (this.options.contractsOf && ranked.length > offset) {
      // Filtering by compliance needs every candidate's state; otherwise the page's only.
      const wanted = query.compliance?.length ? ranked : ranked.slice(offset, offset + limit);
      contracts = await this.options.contractsOf(
        wanted.flatMap((h) => {
          const doc = this.index.document(h.key);
          return doc ? [{ environment: doc.environment, systemId: doc.systemId }] : [];
        }),
      );
    }
    if (query.compliance?.length) {
      const wanted = new Set(query.compliance);
      ranked = ranked.filter((h) => {
        const state = contracts?.get(h.key)?.compliance;
        return state !== undefined && wanted.has(state);
      });
    }
    const hits = ranked.slice(offset, offset + limit).flatMap((h) => {
      const doc = this.index.document(h.key);
      return doc ? [searchHit(doc, h, contracts?.get(h.key))] : [];
    });
    const more = ranked.length > offset + limit && offset + limit <= MAX_SEARCH_OFFSET;
    return {
      mode: ranking.fallback === undefined ? 'hybrid' : 'lexical',
      ...(ranking.fallback === undefined ? {} : { fallback: ranking.fallback }),
      model: this.model,
      pending,
      hits,
      ...(ranking.didYouMean === undefined ? {} : { suggestions: [ranking.didYouMean] }),
      offset,
      ...(more ? { nextOffset: offset + limit } : {}),
    };
  }

  /** Resolves when no embedding work is running or queued (retries after a failure excepted). */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.allSettled([
        this.sync.settled(),
        this.embedder?.settled(),
        this.jobs.settled(),
      ]);
      if (!this.sync.busy && this.jobs.count === 0) return;
    }
  }

  /** Stops background work (the store is closed by its owner). */
  async close(): Promise<void> {
    this.sync.close();
    this.jobs.close();
    await this.idle();
    await this.options.provider?.close?.();
    this.options.thesaurus?.close?.();
  }
}
