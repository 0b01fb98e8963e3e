import type { InstanceCompliance } from '@dcg/contract-schema';
import type {
  EmbeddingJob,
  EmbeddingsStatus,
  MarketplaceSearchQuery,
  SearchHit,
  SearchHitContract,
  SearchResult,
} from '@dcg/governance-schema';
import { MAX_SEARCH_OFFSET } from '@dcg/governance-schema';
import type { EmbeddingProvider } from './embedding-provider';
import type { EmbeddingStore, StoredEmbedding } from './embedding-store';
import { MarketplaceSearchError } from './errors';
import { explainHit } from './hit-explanation';
import { type FusedHit, fuseRankings, keepRelevant } from './hybrid-ranking';
import { type InstanceDocument, instanceDocument, type SearchableInstance } from './instance-text';
import { instanceKey, LexicalIndex } from './lexical-index';
import { PendingInstances } from './pending-instances';
import type { Thesaurus } from './query-expansion';
import { type VectorHit, VectorIndex } from './vector-index';

/**
 * Where the marketplace instances come from (the governance store in governance-api).
 *
 * @example
 * const source: InstanceSource = { listInstances: (filter) => store.listInstances(filter) };
 */
export interface InstanceSource {
  listInstances(filter: { environment?: string }): Promise<SearchableInstance[]>;
}

/**
 * What a hit says of an instance's data contracts: each one's latest state and their roll-up.
 *
 * @example
 * const contracts: InstanceContracts = { compliance: 'compliant', dataContracts: [{ id, status: 'compliant' }] };
 */
export interface InstanceContracts {
  compliance: InstanceCompliance;
  dataContracts: readonly SearchHitContract[];
}

/** A structured logger (the http-kit logger fits). */
export interface SearchLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

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

const MAX_JOB_ERRORS = 20;
const ENV_SEP = '\u0000';

const envOf = (key: string) => key.slice(0, key.indexOf(ENV_SEP));

/**
 * The marketplace search: keeps the lexical index of every instance and the vector index of the
 * current model, embeds what is missing or stale (at start, after each deploy and undeploy, and
 * in `createEmbeddings` jobs), stores embeddings durably, and answers hybrid searches. A provider
 * outage never fails a deploy: the instance stays pending and is embedded later.
 *
 * @example
 * const search = new MarketplaceSearch({ store, provider: createLocalEmbedder(), source });
 * await search.start();
 * const result = await search.search({ q: 'customer invoices', limit: 10, offset: 0 });
 */
export class MarketplaceSearch {
  private readonly docs = new Map<string, InstanceDocument>();
  private readonly lexical = new LexicalIndex();
  private readonly vectors: VectorIndex | null;
  private readonly vectorHash = new Map<string, string>();
  private readonly embeddedAt = new Map<string, string>();
  private readonly pending = new PendingInstances();
  private readonly jobs = new Map<string, { job: EmbeddingJob; done: Promise<void> }>();
  private readonly finishedListeners = new Set<(job: EmbeddingJob) => void>();
  private readonly queryCache = new Map<string, Float32Array>();
  private chain: Promise<unknown> = Promise.resolve();
  private draining: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastError: { message: string; at: string } | null = null;
  private queryEmbeddings = 0;
  private readonly deployedAt = new Map<string, string>();
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private orphanTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private readonly batchSize: number;
  private readonly retryDelayMs: number;
  private readonly jobLeaseMs: number;
  /** This process's name on job leases. */
  private readonly owner = globalThis.crypto.randomUUID();

  constructor(private readonly options: MarketplaceSearchOptions) {
    this.vectors = options.provider ? new VectorIndex(options.provider.dimensions) : null;
    this.batchSize = options.batchSize ?? 32;
    this.retryDelayMs = options.retryDelayMs ?? 30_000;
    this.jobLeaseMs = options.jobLeaseMs ?? 60_000;
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
    const instances = await this.options.source.listInstances({});
    for (const instance of instances) this.index(instanceDocument(instance), instance.deployedAt);
    const every = this.options.refreshIntervalMs ?? 0;
    if (every > 0) {
      this.refreshTimer = setInterval(() => {
        this.refresh().catch((error: unknown) => this.recordError(error));
      }, every);
      this.refreshTimer.unref?.();
    }
    const provider = this.options.provider;
    if (!provider || !this.vectors) return;
    const rows = await this.options.store.listEmbeddings(provider.model);
    for (const row of rows) {
      const key = instanceKey(row.environment, row.systemId);
      if (!this.docs.has(key)) {
        // Undeployed while this process was down.
        await this.options.store.deleteEmbeddings(row.environment, row.systemId);
        continue;
      }
      if (row.vector.length !== provider.dimensions) continue;
      this.vectors.upsert(key, row.environment, row.vector);
      this.vectorHash.set(key, row.textHash);
      this.embeddedAt.set(key, row.embeddedAt);
    }
    for (const [key, doc] of this.docs)
      if (this.vectorHash.get(key) !== doc.textHash) this.pending.add(key);
    await this.adoptOrphanedJobs();
    // A job whose process died while another one holds the store is taken over once its lease
    // expires (at start, a live lease means another process still runs it).
    this.orphanTimer = setInterval(() => {
      this.adoptOrphanedJobs().catch((error: unknown) => this.recordError(error));
    }, this.jobLeaseMs);
    this.orphanTimer.unref?.();
    this.log('info', 'marketplace search started', {
      instances: this.docs.size,
      embedded: this.vectorHash.size,
      pending: this.pending.size,
      model: provider.model,
    });
    this.schedule();
  }

  /** An instance was deployed (or redeployed): indexed at once, embedded when its text changed. */
  async onDeployed(instance: SearchableInstance): Promise<void> {
    const doc = instanceDocument(instance);
    const key = this.index(doc, instance.deployedAt);
    if (!this.vectors || this.vectorHash.get(key) === doc.textHash) return;
    this.pending.add(key);
    try {
      await this.exclusive(() => this.embedKeys([key]));
    } catch (error) {
      this.recordError(error);
      this.scheduleRetry();
    }
  }

  /** An instance was undeployed: gone from both indexes and from the store. */
  async onUndeployed(systemId: string, environment: string): Promise<void> {
    const key = instanceKey(environment, systemId);
    this.forget(key);
    await this.options.store.deleteEmbeddings(environment, systemId);
  }

  /**
   * Starts embedding every instance of the environment with the current model (needed after a
   * model change); answers the job at once. While one runs for the environment, in this process
   * or another one on the same store, answers that one.
   */
  async createEmbeddings(environment: string): Promise<EmbeddingJob> {
    const provider = this.options.provider;
    if (!provider) {
      throw new MarketplaceSearchError(
        'search_unavailable',
        'embeddings search is disabled (embeddingsSearch.enabled is false)',
      );
    }
    const running = this.jobs.get(environment);
    if (running) return { ...running.job };
    const keys = [...this.docs.keys()].filter((k) => envOf(k) === environment);
    const now = new Date().toISOString();
    const job: EmbeddingJob = {
      id: globalThis.crypto.randomUUID(),
      environment,
      model: provider.model,
      status: 'running',
      total: keys.length,
      done: 0,
      failed: 0,
      errors: [],
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
      resumed: 0,
    };
    const claim = await this.options.store.claimJob(job, {
      owner: this.owner,
      leaseMs: this.jobLeaseMs,
    });
    // Another process runs one: its progress is in the store.
    if (!claim.claimed) return claim.job;
    // Claimed while another call of this process awaited the store: that one runs.
    const raced = this.jobs.get(environment);
    if (raced) return { ...raced.job };
    this.runJob(job, keys);
    return { ...job };
  }

  /** A job by id (running ones with their live progress). */
  async getJob(id: string): Promise<EmbeddingJob | null> {
    for (const { job } of this.jobs.values())
      if (job.id === id) return { ...job, errors: [...job.errors] };
    return this.options.store.getJob(id);
  }

  /** Jobs of an environment, newest first. */
  async listJobs(environment?: string): Promise<EmbeddingJob[]> {
    const stored = await this.options.store.listJobs({
      ...(environment === undefined ? {} : { environment }),
      limit: 20,
    });
    return stored.map((j) => {
      const live = [...this.jobs.values()].find((r) => r.job.id === j.id);
      return live ? { ...live.job } : j;
    });
  }

  /**
   * Calls `listener` with each embedding job this process finishes (`completed` or `failed`; a job
   * stopped by a shutdown is resumed later and not finished). Answers the unsubscribe.
   *
   * @example
   * search.onJobFinished((job) => jobs.inc({ status: job.status }));
   */
  onJobFinished(listener: (job: EmbeddingJob) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  async status(environment?: string): Promise<EmbeddingsStatus> {
    const inEnv = (key: string) => environment === undefined || envOf(key) === environment;
    let instances = 0;
    let embedded = 0;
    for (const key of this.docs.keys()) {
      if (!inEnv(key)) continue;
      instances++;
      if (this.vectorHash.has(key)) embedded++;
    }
    const pending = this.pending.countIn(environment);
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
      pending,
      otherModels,
      lastError: this.lastError,
      runningJobs: await this.runningJobs(environment),
    };
  }

  /**
   * Hybrid search: BM25F over names, facets and text fused by reciprocal rank with cosine
   * similarity of the query's embedding; exact URN or name first. Over every environment unless
   * the query names one (one index and one ranking either way). Lexical only, and says why,
   * while embeddings are disabled, missing, or the provider fails. One page of hits from
   * `offset`, `nextOffset` when more follow.
   */
  async search(
    query: Omit<MarketplaceSearchQuery, 'offset'> & { offset?: number | undefined },
  ): Promise<SearchResult> {
    const { q, environment, limit } = query;
    const offset = query.offset ?? 0;
    const filtering = (query.kind?.length ?? 0) > 0 || (query.compliance?.length ?? 0) > 0;
    // One more than the page, to know whether another page follows.
    const window = offset + limit + 1;
    const candidates = Math.max(50, window * (filtering ? 10 : 3));
    const pending = this.pending.countIn(environment);

    let fallback: string | undefined;
    let vectorSearch: Promise<VectorHit[]> | undefined;
    const { provider } = this.options;
    const vectors = this.vectors;
    if (!provider || !vectors) {
      fallback = 'embeddings search is disabled';
    } else if (vectors.count(environment) === 0) {
      fallback = `no embeddings yet${environment === undefined ? '' : ` in ${environment}`} (${pending} pending)`;
    } else {
      // Started first: a new query's embedding runs elsewhere (a worker, a provider) while the
      // lexical search runs here.
      const minSimilarity = this.options.minVectorSimilarity ?? provider.minSimilarity;
      vectorSearch = this.queryVector(q).then((vector) =>
        vectors.search(vector, { environment, limit: candidates, minSimilarity }),
      );
      vectorSearch.catch(() => {}); // awaited below
    }
    const thesaurus = this.options.thesaurus;
    const plan = this.lexical.plan(q, {
      synonyms: thesaurus && ((word) => thesaurus.synonyms(word)),
    });
    const lexicalHits = this.lexical.search(q, { environment, limit: candidates, plan });
    let vectorHits: VectorHit[] = [];
    try {
      vectorHits = (await vectorSearch) ?? [];
    } catch (error) {
      if (MarketplaceSearchError.isInstance(error) && error.code === 'search_unavailable') {
        fallback = error.message;
      } else {
        this.recordError(error);
        fallback = `the embedding provider failed: ${(error as Error).message}`;
      }
    }
    let fused = keepRelevant(fuseRankings(lexicalHits, vectorHits, { limit: candidates }), {
      meaning: provider?.meaningCut,
    });
    if (query.kind?.length) {
      const kinds = new Set(query.kind.map((k) => k.toLowerCase()));
      fused = fused.filter((h) =>
        this.docs.get(h.key)?.kinds.some((k) => kinds.has(k.toLowerCase())),
      );
    }
    let contracts: Map<string, InstanceContracts> | undefined;
    if (this.options.contractsOf && fused.length > offset) {
      // Filtering by compliance needs every candidate's state; otherwise the page's only.
      const wanted = query.compliance?.length ? fused : fused.slice(offset, offset + limit);
      contracts = await this.options.contractsOf(
        wanted.map((h) => {
          const doc = this.docs.get(h.key) as InstanceDocument;
          return { environment: doc.environment, systemId: doc.systemId };
        }),
      );
    }
    if (query.compliance?.length) {
      const wanted = new Set(query.compliance);
      fused = fused.filter((h) => {
        const state = contracts?.get(h.key)?.compliance;
        return state !== undefined && wanted.has(state);
      });
    }
    const hits = fused.slice(offset, offset + limit).map((h) => this.toHit(h, contracts));
    const more = fused.length > offset + limit && offset + limit <= MAX_SEARCH_OFFSET;
    return {
      mode: fallback === undefined ? 'hybrid' : 'lexical',
      ...(fallback === undefined ? {} : { fallback }),
      model: this.model,
      pending,
      hits,
      ...(plan.didYouMean === undefined ? {} : { suggestions: [plan.didYouMean] }),
      offset,
      ...(more ? { nextOffset: offset + limit } : {}),
    };
  }

  /** Resolves when no embedding work is running or queued (retries after a failure excepted). */
  async idle(): Promise<void> {
    for (;;) {
      const waits = [
        this.draining,
        this.chain,
        ...[...this.jobs.values()].map((j) => j.done),
      ].filter(Boolean);
      await Promise.allSettled(waits);
      if (!this.draining && this.jobs.size === 0) return;
    }
  }

  /** Stops background work (the store is closed by its owner). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.orphanTimer) clearInterval(this.orphanTimer);
    await this.idle();
    await this.options.provider?.close?.();
    this.options.thesaurus?.close?.();
  }

  /**
   * Re-reads the instances: new or redeployed ones (another `deployedAt`) are indexed and, when
   * their text has no current embedding here, embedded; ones no longer deployed are forgotten
   * (their stored embeddings are the undeploying process's to delete).
   */
  async refresh(): Promise<{ indexed: number; forgotten: number }> {
    const instances = await this.options.source.listInstances({});
    const seen = new Set<string>();
    let indexed = 0;
    for (const instance of instances) {
      const key = instanceKey(instance.environment, instance.systemId);
      seen.add(key);
      if (this.deployedAt.get(key) === instance.deployedAt) continue;
      const doc = instanceDocument(instance);
      this.index(doc, instance.deployedAt);
      indexed++;
      if (this.vectors && this.vectorHash.get(key) !== doc.textHash) this.pending.add(key);
    }
    let forgotten = 0;
    for (const key of [...this.docs.keys()]) {
      if (seen.has(key)) continue;
      this.forget(key);
      forgotten++;
    }
    if (this.pending.size > 0) this.schedule();
    return { indexed, forgotten };
  }

  private index(doc: InstanceDocument, deployedAt: string): string {
    const key = instanceKey(doc.environment, doc.systemId);
    this.docs.set(key, doc);
    this.deployedAt.set(key, deployedAt);
    this.lexical.upsert(doc);
    return key;
  }

  private forget(key: string): void {
    this.lexical.remove(key);
    this.docs.delete(key);
    this.deployedAt.delete(key);
    this.vectors?.remove(key);
    this.vectorHash.delete(key);
    this.embeddedAt.delete(key);
    this.pending.delete(key);
  }

  private toHit(h: FusedHit, contracts: Map<string, InstanceContracts> | undefined): SearchHit {
    const doc = this.docs.get(h.key) as InstanceDocument;
    const { matchedBy, why } = explainHit(h);
    const found = contracts?.get(h.key);
    return {
      systemId: doc.systemId,
      environment: doc.environment,
      name: doc.name,
      kind: doc.kind,
      ...(doc.domain === undefined ? {} : { domain: doc.domain }),
      score: Number(h.score.toFixed(6)),
      matchedBy,
      why,
      ...(h.lexical
        ? { lexical: { rank: h.lexical.rank, matchedTerms: h.lexical.matchedTerms } }
        : {}),
      ...(h.vector
        ? { vector: { rank: h.vector.rank, similarity: Number(h.vector.similarity.toFixed(4)) } }
        : {}),
      ...(found === undefined
        ? {}
        : {
            compliance: found.compliance,
            dataContracts: found.dataContracts.map((c) => ({ ...c })),
          }),
    };
  }

  private async queryVector(q: string): Promise<Float32Array> {
    const cached = this.queryCache.get(q);
    if (cached) {
      this.queryCache.delete(q);
      this.queryCache.set(q, cached);
      return cached;
    }
    const provider = this.options.provider as EmbeddingProvider;
    if (this.queryEmbeddings >= (this.options.maxConcurrentQueryEmbeddings ?? 8)) {
      throw new MarketplaceSearchError(
        'search_unavailable',
        'too many searches are being embedded at once',
      );
    }
    this.queryEmbeddings++;
    let vector: Float32Array | undefined;
    try {
      [vector] = await provider.embed([q], {
        signal: AbortSignal.timeout(this.options.queryTimeoutMs ?? 5000),
        priority: 'query',
      });
    } finally {
      this.queryEmbeddings--;
    }
    if (!vector)
      throw new MarketplaceSearchError('provider_bad_response', 'no vector for the query');
    this.queryCache.set(q, vector);
    if (this.queryCache.size > (this.options.queryCacheSize ?? 1000)) {
      this.queryCache.delete(this.queryCache.keys().next().value as string);
    }
    return vector;
  }

  /** Runs provider work one call at a time (the local model is CPU-bound; remote ones rate-limit). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Embeds the current text of these instances and stores the vectors. */
  private async embedKeys(keys: string[]): Promise<void> {
    const provider = this.options.provider as EmbeddingProvider;
    const vectors = this.vectors as VectorIndex;
    const docs = keys
      .map((k) => this.docs.get(k))
      .filter((d): d is InstanceDocument => d !== undefined);
    if (docs.length === 0) return;
    const embedded = await provider.embed(docs.map((d) => d.embeddingText));
    const at = new Date().toISOString();
    const rows: StoredEmbedding[] = docs.map((doc, i) => ({
      environment: doc.environment,
      systemId: doc.systemId,
      model: provider.model,
      dimensions: provider.dimensions,
      textHash: doc.textHash,
      vector: embedded[i] as Float32Array,
      embeddedAt: at,
    }));
    await this.options.store.putEmbeddings(rows);
    for (const row of rows) {
      const key = instanceKey(row.environment, row.systemId);
      const current = this.docs.get(key);
      if (!current) {
        // Undeployed while its embedding was being made.
        await this.options.store.deleteEmbeddings(row.environment, row.systemId);
        continue;
      }
      vectors.upsert(key, row.environment, row.vector);
      this.vectorHash.set(key, row.textHash);
      this.embeddedAt.set(key, at);
      if (current.textHash === row.textHash) this.pending.delete(key);
    }
  }

  private schedule(): void {
    if (this.draining || this.closed || !this.vectors) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.pending.size > 0) {
      const owned = new Set<string>();
      for (const { job } of this.jobs.values())
        for (const k of this.docs.keys()) if (envOf(k) === job.environment) owned.add(k);
      const batch: string[] = [];
      for (const key of this.pending) {
        if (owned.has(key)) continue;
        batch.push(key);
        if (batch.length >= this.batchSize) break;
      }
      if (batch.length === 0) return;
      try {
        await this.exclusive(() => this.embedKeys(batch));
      } catch (error) {
        this.recordError(error);
        this.scheduleRetry();
        return;
      }
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.schedule();
    }, this.retryDelayMs);
    this.retryTimer.unref?.();
  }

  private recordError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { message, at: new Date().toISOString() };
    this.log('warn', 'embedding failed; the instances stay pending', { error: message });
  }

  private async resumeJob(job: EmbeddingJob): Promise<void> {
    if (this.jobs.has(job.environment)) return;
    if (job.model !== this.model) {
      // Only a job nobody runs any more (its lease is free or expired) is this process's to end.
      const claim = await this.options.store.claimJob(job, {
        owner: this.owner,
        leaseMs: this.jobLeaseMs,
      });
      if (!claim.claimed) return;
      await this.options.store.updateJob({
        ...job,
        status: 'failed',
        errors: [
          ...job.errors,
          { systemId: '', message: `interrupted, and the model is now ${this.model}` },
        ].slice(-MAX_JOB_ERRORS),
        updatedAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
      });
      await this.options.store.releaseJobLease(job.environment, this.owner);
      return;
    }
    const keys = [...this.docs.keys()].filter((k) => envOf(k) === job.environment);
    const remaining = keys.filter((k) => (this.embeddedAt.get(k) ?? '') < job.startedAt);
    const resumed: EmbeddingJob = {
      ...job,
      total: keys.length,
      done: keys.length - remaining.length,
      failed: 0,
      resumed: job.resumed + 1,
      updatedAt: new Date().toISOString(),
    };
    // A job another live process runs is theirs; one whose process died is taken over.
    const claim = await this.options.store.claimJob(resumed, {
      owner: this.owner,
      leaseMs: this.jobLeaseMs,
    });
    if (!claim.claimed) return;
    this.log('info', 'embedding job resumed after a stop', {
      jobId: job.id,
      environment: job.environment,
      remaining: remaining.length,
    });
    this.runJob(resumed, remaining);
  }

  /** Running jobs: this process's with live progress, and those other processes run. */
  private async runningJobs(environment: string | undefined): Promise<EmbeddingJob[]> {
    const local = [...this.jobs.values()]
      .map((r) => ({ ...r.job }))
      .filter((j) => environment === undefined || j.environment === environment);
    const stored = await this.options.store.listJobs({
      ...(environment === undefined ? {} : { environment }),
      status: 'running',
      limit: 100,
    });
    const ids = new Set(local.map((j) => j.id));
    return [...local, ...stored.filter((j) => !ids.has(j.id))];
  }

  /** Resumes the running jobs of the store that no live process holds (see `resumeJob`). */
  private async adoptOrphanedJobs(): Promise<void> {
    if (this.closed) return;
    for (const job of await this.options.store.listJobs({ status: 'running', limit: 1000 })) {
      if (this.closed) return;
      await this.resumeJob(job);
    }
  }

  private runJob(job: EmbeddingJob, keys: string[]): void {
    const store = this.options.store;
    let leaseLost = false;
    const renewal = setInterval(
      () => {
        store
          .renewJobLease(job.environment, this.owner, this.jobLeaseMs)
          .then((held) => {
            if (!held) leaseLost = true;
          })
          .catch((error: unknown) => this.recordError(error));
      },
      Math.max(1, Math.floor(this.jobLeaseMs / 3)),
    );
    renewal.unref?.();
    const done = (async () => {
      for (let i = 0; i < keys.length && !this.closed && !leaseLost; i += this.batchSize) {
        const batch = keys.slice(i, i + this.batchSize);
        try {
          await this.exclusive(() => this.embedKeys(batch));
          job.done += batch.length;
        } catch (error) {
          this.recordError(error);
          job.failed += batch.length;
          const message = error instanceof Error ? error.message : String(error);
          for (const key of batch) {
            if (job.errors.length >= MAX_JOB_ERRORS) break;
            job.errors.push({ systemId: key.slice(key.indexOf(ENV_SEP) + 1), message });
          }
        }
        job.updatedAt = new Date().toISOString();
        await this.options.store.updateJob(job).catch((e: unknown) => this.recordError(e));
      }
      if (leaseLost) {
        // Another process took the environment over (this one stalled past the lease).
        this.log('warn', 'embedding job lost its lease to another process', { jobId: job.id });
        return;
      }
      if (this.closed && job.done + job.failed < job.total) return; // resumed at the next start
      job.status = job.failed > 0 && job.done === 0 && job.total > 0 ? 'failed' : 'completed';
      job.finishedAt = new Date().toISOString();
      job.updatedAt = job.finishedAt;
      await this.options.store.updateJob(job).catch((e: unknown) => this.recordError(e));
      this.log('info', 'embedding job finished', {
        jobId: job.id,
        status: job.status,
        done: job.done,
        failed: job.failed,
      });
      for (const listener of this.finishedListeners) {
        try {
          listener({ ...job });
        } catch (error) {
          this.recordError(error);
        }
      }
    })().finally(async () => {
      clearInterval(renewal);
      // A stop leaves the lease to expire, so that a restart (or another process) resumes it.
      if (!this.closed && !leaseLost)
        await store
          .releaseJobLease(job.environment, this.owner)
          .catch((error: unknown) => this.recordError(error));
      this.jobs.delete(job.environment);
      if (this.pending.size > 0) this.schedule();
    });
    this.jobs.set(job.environment, { job, done });
  }

  private log(
    level: 'info' | 'warn' | 'error',
    message: string,
    fields: Record<string, unknown>,
  ): void {
    this.options.logger?.[level](message, fields);
  }
}
