import type { EmbeddingStore } from './embedding-store';
import type { HybridIndex } from './hybrid-index';
import type { InstanceEmbedder } from './instance-embedder';
import { instanceDocument, type SearchableInstance } from './instance-text';
import type { LastFailure } from './last-failure';
import { instanceKey } from './lexical-index';

/**
 * Where the marketplace instances come from (the governance store in governance-api).
 *
 * @example
 * const source: InstanceSource = { listInstances: (filter) => store.listInstances(filter) };
 */
export interface InstanceSource {
  listInstances(filter: { environment?: string }): Promise<SearchableInstance[]>;
}

/** What {@link IndexSync} works with. */
export interface IndexSyncOptions {
  source: InstanceSource;
  store: EmbeddingStore;
  index: HybridIndex;
  /** The current model's embedder; null when embeddings search is disabled. */
  embedder: InstanceEmbedder | null;
  /** The current model and its dimensions, or null when disabled. */
  model: { name: string; dimensions: number } | null;
  failures: LastFailure;
  /** Environments a job embeds: background embedding leaves their instances to the job. */
  busyEnvironments: () => ReadonlySet<string>;
  /** Instances per provider call. */
  batchSize: number;
  /** Wait before embedding pending instances again after a failure. */
  retryDelayMs: number;
  /** Re-read the instances this often (ms; 0: never). */
  refreshIntervalMs: number;
}

/**
 * Keeps the index in step with the deployed instances and the store: loads every instance and the
 * stored vectors of the current model at start, indexes each deploy and forgets each undeploy as
 * they happen (and, for processes sharing a store, on a periodic refresh), and embeds in the
 * background what is pending, retrying after a failure. A provider outage never fails a deploy:
 * the instance stays pending.
 *
 * @example
 * const sync = new IndexSync({ source, store, index, embedder, model, failures, busyEnvironments, batchSize: 32, retryDelayMs: 30_000, refreshIntervalMs: 0 });
 * await sync.start();
 * sync.embedPending();
 */
export class IndexSync {
  private draining: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;

  constructor(private readonly options: IndexSyncOptions) {}

  /**
   * Indexes every instance, loads the stored vectors of the current model (deleting those of
   * instances undeployed while no process ran) and marks what is missing or stale as pending.
   */
  async start(): Promise<void> {
    const { source, store, index, model } = this.options;
    const instances = await source.listInstances({});
    for (const instance of instances) index.add(instanceDocument(instance), instance.deployedAt);
    if (this.options.refreshIntervalMs > 0) {
      this.refreshTimer = setInterval(() => {
        this.refresh().catch((error: unknown) => this.options.failures.record(error));
      }, this.options.refreshIntervalMs);
      this.refreshTimer.unref?.();
    }
    if (!model || !index.hasVectors) return;
    for (const row of await store.listEmbeddings(model.name)) {
      const key = instanceKey(row.environment, row.systemId);
      if (!index.document(key)) {
        // Undeployed while this process was down.
        await store.deleteEmbeddings(row.environment, row.systemId);
        continue;
      }
      if (row.vector.length !== model.dimensions) continue;
      index.putVector(key, row.vector, row.textHash, row.embeddedAt);
    }
    for (const key of index.keys()) if (index.needsEmbedding(key)) index.pending.add(key);
  }

  /** An instance was deployed (or redeployed): indexed at once, embedded when its text changed. */
  async onDeployed(instance: SearchableInstance): Promise<void> {
    const { index, embedder } = this.options;
    const key = index.add(instanceDocument(instance), instance.deployedAt);
    if (!embedder || !index.needsEmbedding(key)) return;
    index.pending.add(key);
    try {
      await embedder.embed([key]);
    } catch (error) {
      this.options.failures.record(error);
      this.scheduleRetry();
    }
  }

  /** An instance was undeployed: gone from the index and from the store. */
  async onUndeployed(systemId: string, environment: string): Promise<void> {
    this.options.index.remove(instanceKey(environment, systemId));
    await this.options.store.deleteEmbeddings(environment, systemId);
  }

  /**
   * Re-reads the instances: new or redeployed ones (another `deployedAt`) are indexed and, when
   * their text has no current vector here, embedded; ones no longer deployed are forgotten (their
   * stored vectors are the undeploying process's to delete).
   */
  async refresh(): Promise<{ indexed: number; forgotten: number }> {
    const { source, index } = this.options;
    const instances = await source.listInstances({});
    const seen = new Set<string>();
    let indexed = 0;
    for (const instance of instances) {
      const key = instanceKey(instance.environment, instance.systemId);
      seen.add(key);
      if (index.deployedAt(key) === instance.deployedAt) continue;
      index.add(instanceDocument(instance), instance.deployedAt);
      indexed++;
      if (index.needsEmbedding(key)) index.pending.add(key);
    }
    let forgotten = 0;
    for (const key of [...index.keys()]) {
      if (seen.has(key)) continue;
      index.remove(key);
      forgotten++;
    }
    this.embedPending();
    return { indexed, forgotten };
  }

  /** Starts embedding the pending instances in the background, unless that already runs. */
  embedPending(): void {
    if (this.draining || this.closed || !this.options.embedder) return;
    if (this.options.index.pending.size === 0) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Whether background embedding runs now. */
  get busy(): boolean {
    return this.draining !== null;
  }

  /** Resolves when the background embedding running now has stopped. */
  async settled(): Promise<void> {
    await this.draining;
  }

  /** Stops the refresh, the retries and the background embedding (after its batch). */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
  }

  private async drain(): Promise<void> {
    const { index, batchSize } = this.options;
    const embedder = this.options.embedder as InstanceEmbedder;
    while (!this.closed && index.pending.size > 0) {
      const busy = this.options.busyEnvironments();
      const batch: string[] = [];
      for (const key of index.pending) {
        if (busy.has(index.document(key)?.environment ?? '')) continue;
        batch.push(key);
        if (batch.length >= batchSize) break;
      }
      if (batch.length === 0) return;
      try {
        await embedder.embed(batch);
      } catch (error) {
        this.options.failures.record(error);
        this.scheduleRetry();
        return;
      }
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.embedPending();
    }, this.options.retryDelayMs);
    this.retryTimer.unref?.();
  }
}
