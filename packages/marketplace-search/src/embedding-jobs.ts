import type { EmbeddingJob } from '@dcg/governance-schema';
import type { EmbeddingStore } from './embedding-store';
import { MarketplaceSearchError } from './errors';
import type { HybridIndex } from './hybrid-index';
import type { InstanceEmbedder } from './instance-embedder';
import type { LastFailure, SearchLogger } from './last-failure';

/** What {@link EmbeddingJobs} works with. */
export interface EmbeddingJobsOptions {
  store: EmbeddingStore;
  index: HybridIndex;
  /** The current model's embedder; null when embeddings search is disabled (no job can start). */
  embedder: InstanceEmbedder | null;
  /** The current model, or null when disabled. */
  model: string | null;
  failures: LastFailure;
  /** How long a job holds its environment's lease without renewing it (renewed every third). */
  leaseMs: number;
  /** Instances per provider call. */
  batchSize: number;
  /** Called when a job of this process ends (its environment's pending instances are free again). */
  onJobEnded: () => void;
  logger?: SearchLogger | undefined;
}

const MAX_JOB_ERRORS = 20;

/**
 * The `createEmbeddings` jobs: each embeds every instance of one environment with the current
 * model, in batches, with its progress in the store. Processes sharing one store run one job per
 * environment, held by a lease in the store that the running process renews: a second request
 * anywhere answers the running job, and a job whose process died is taken over (resumed where it
 * stopped) once its lease expires. A job stopped by a shutdown is resumed at the next start.
 *
 * @example
 * const jobs = new EmbeddingJobs({ store, index, embedder, model, failures, leaseMs: 60_000, batchSize: 32, onJobEnded });
 * const job = await jobs.create('production');
 */
export class EmbeddingJobs {
  private readonly running = new Map<string, { job: EmbeddingJob; done: Promise<void> }>();
  private readonly finishedListeners = new Set<(job: EmbeddingJob) => void>();
  private orphanTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  /** This process's name on job leases. */
  private readonly owner = globalThis.crypto.randomUUID();

  constructor(private readonly options: EmbeddingJobsOptions) {}

  /**
   * Starts a job for the environment and answers it at once; while one runs for the environment,
   * in this process or another one on the same store, answers that one.
   */
  async create(environment: string): Promise<EmbeddingJob> {
    const { model, embedder } = this.options;
    if (model === null || embedder === null) {
      throw new MarketplaceSearchError(
        'search_unavailable',
        'embeddings search is disabled (embeddingsSearch.enabled is false)',
      );
    }
    const running = this.running.get(environment);
    if (running) return { ...running.job };
    const keys = this.options.index.keysIn(environment);
    const now = new Date().toISOString();
    const job: EmbeddingJob = {
      id: globalThis.crypto.randomUUID(),
      environment,
      model,
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
    const claim = await this.claim(job);
    // Another process runs one: its progress is in the store.
    if (!claim.claimed) return claim.job;
    // Claimed while another call of this process awaited the store: that one runs.
    const raced = this.running.get(environment);
    if (raced) return { ...raced.job };
    this.run(job, keys);
    return { ...job };
  }

  /** A job by id (running ones with their live progress). */
  async get(id: string): Promise<EmbeddingJob | null> {
    for (const { job } of this.running.values())
      if (job.id === id) return { ...job, errors: [...job.errors] };
    return this.options.store.getJob(id);
  }

  /** Jobs of an environment (of all when undefined), newest first. */
  async list(environment?: string): Promise<EmbeddingJob[]> {
    const stored = await this.options.store.listJobs({
      ...(environment === undefined ? {} : { environment }),
      limit: 20,
    });
    return stored.map((j) => {
      const live = [...this.running.values()].find((r) => r.job.id === j.id);
      return live ? { ...live.job } : j;
    });
  }

  /** Running jobs: this process's with live progress, and those other processes run. */
  async listRunning(environment: string | undefined): Promise<EmbeddingJob[]> {
    const local = [...this.running.values()]
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

  /** Environments a job of this process is embedding (background embedding leaves them alone). */
  runningEnvironments(): Set<string> {
    return new Set(this.running.keys());
  }

  /** Calls `listener` with each job this process finishes (`completed` or `failed`). */
  onFinished(listener: (job: EmbeddingJob) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  /**
   * Resumes the jobs a stop interrupted, then every lease period those whose process died while
   * this one runs (at start, a live lease means another process still runs the job).
   */
  async start(): Promise<void> {
    await this.adoptOrphans();
    this.orphanTimer = setInterval(() => {
      this.adoptOrphans().catch((error: unknown) => this.options.failures.record(error));
    }, this.options.leaseMs);
    this.orphanTimer.unref?.();
  }

  /** Resolves when the jobs running now have ended; `count` says whether new ones started. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((j) => j.done));
  }

  get count(): number {
    return this.running.size;
  }

  /** Stops taking jobs over; running ones stop after their batch and keep their lease to expire. */
  close(): void {
    this.closed = true;
    if (this.orphanTimer) clearInterval(this.orphanTimer);
  }

  private claim(job: EmbeddingJob) {
    return this.options.store.claimJob(job, { owner: this.owner, leaseMs: this.options.leaseMs });
  }

  /** Resumes the running jobs of the store that no live process holds (see `resume`). */
  private async adoptOrphans(): Promise<void> {
    if (this.closed) return;
    for (const job of await this.options.store.listJobs({ status: 'running', limit: 1000 })) {
      if (this.closed) return;
      await this.resume(job);
    }
  }

  private async resume(job: EmbeddingJob): Promise<void> {
    if (this.running.has(job.environment)) return;
    const { store, index, model } = this.options;
    if (job.model !== model) {
      // Only a job nobody runs any more (its lease is free or expired) is this process's to end.
      if (!(await this.claim(job)).claimed) return;
      await store.updateJob({
        ...job,
        status: 'failed',
        errors: [
          ...job.errors,
          { systemId: '', message: `interrupted, and the model is now ${model}` },
        ].slice(-MAX_JOB_ERRORS),
        updatedAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
      });
      await store.releaseJobLease(job.environment, this.owner);
      return;
    }
    const keys = index.keysIn(job.environment);
    const remaining = keys.filter((k) => (index.embeddedAt(k) ?? '') < job.startedAt);
    const resumed: EmbeddingJob = {
      ...job,
      total: keys.length,
      done: keys.length - remaining.length,
      failed: 0,
      resumed: job.resumed + 1,
      updatedAt: new Date().toISOString(),
    };
    // A job another live process runs is theirs; one whose process died is taken over.
    if (!(await this.claim(resumed)).claimed) return;
    this.options.logger?.info('embedding job resumed after a stop', {
      jobId: job.id,
      environment: job.environment,
      remaining: remaining.length,
    });
    this.run(resumed, remaining);
  }

  private run(job: EmbeddingJob, keys: string[]): void {
    const { store, failures, leaseMs, batchSize, logger } = this.options;
    const embedder = this.options.embedder as InstanceEmbedder;
    let leaseLost = false;
    const renewal = setInterval(
      () => {
        store
          .renewJobLease(job.environment, this.owner, leaseMs)
          .then((held) => {
            if (!held) leaseLost = true;
          })
          .catch((error: unknown) => failures.record(error));
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    renewal.unref?.();
    const done = (async () => {
      for (let i = 0; i < keys.length && !this.closed && !leaseLost; i += batchSize) {
        const batch = keys.slice(i, i + batchSize);
        try {
          await embedder.embed(batch);
          job.done += batch.length;
        } catch (error) {
          failures.record(error);
          job.failed += batch.length;
          const message = error instanceof Error ? error.message : String(error);
          for (const key of batch) {
            if (job.errors.length >= MAX_JOB_ERRORS) break;
            job.errors.push({ systemId: key.slice(key.indexOf('\u0000') + 1), message });
          }
        }
        job.updatedAt = new Date().toISOString();
        await store.updateJob(job).catch((e: unknown) => failures.record(e));
      }
      if (leaseLost) {
        // Another process took the environment over (this one stalled past the lease).
        logger?.warn('embedding job lost its lease to another process', { jobId: job.id });
        return;
      }
      if (this.closed && job.done + job.failed < job.total) return; // resumed at the next start
      job.status = job.failed > 0 && job.done === 0 && job.total > 0 ? 'failed' : 'completed';
      job.finishedAt = new Date().toISOString();
      job.updatedAt = job.finishedAt;
      await store.updateJob(job).catch((e: unknown) => failures.record(e));
      logger?.info('embedding job finished', {
        jobId: job.id,
        status: job.status,
        done: job.done,
        failed: job.failed,
      });
      for (const listener of this.finishedListeners) {
        try {
          listener({ ...job });
        } catch (error) {
          failures.record(error);
        }
      }
    })().finally(async () => {
      clearInterval(renewal);
      // A stop leaves the lease to expire, so that a restart (or another process) resumes it.
      if (!this.closed && !leaseLost)
        await store
          .releaseJobLease(job.environment, this.owner)
          .catch((error: unknown) => failures.record(error));
      this.running.delete(job.environment);
      this.options.onJobEnded();
    });
    this.running.set(job.environment, { job, done });
  }
}
