import { Worker } from 'node:worker_threads';
import { MarketplaceSearchError } from '../errors';

/**
 * Options of {@link EmbedderWorkerPool}.
 *
 * @example
 * const options: EmbedderWorkerPoolOptions = { file, workerData: {}, dimensions: 512, threads: 1, batchSize: 16, maxQueuedTexts: 4096 };
 */
export interface EmbedderWorkerPoolOptions {
  /** The worker's file (absolute path), e.g. `worker/local-embedder.cjs` of this package. */
  file: string;
  workerData: Record<string, unknown>;
  dimensions: number;
  /** Worker threads, each with its own copy of the model. */
  threads: number;
  /** Texts per message to a worker: between two, a query can go first. */
  batchSize: number;
  /** Texts waiting for a worker at most; an `embed` beyond it fails at once. */
  maxQueuedTexts: number;
  /** What a failure to load says (e.g. which package the model comes from). */
  loadFailure: string;
}

interface Task {
  texts: string[];
  resolve(vectors: Float32Array): void;
  reject(error: unknown): void;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
}

/**
 * Embeds on worker threads, so that a rebuild never holds the event loop: a pool of `threads`
 * workers fed from a bounded queue in which queries (`priority: 'query'`) go before bulk work,
 * one `batchSize` chunk at a time. A worker that dies fails its chunk and is replaced on the next
 * call. Idle workers do not keep the process alive.
 *
 * @example
 * const pool = new EmbedderWorkerPool({ file, workerData, dimensions: 512, threads: 1, batchSize: 16, maxQueuedTexts: 4096, loadFailure: 'no model' });
 * const [vector] = await pool.embed(['customer invoices'], { priority: 'query' });
 */
export class EmbedderWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly urgent: Task[] = [];
  private readonly bulk: Task[] = [];
  private queuedTexts = 0;
  private closed = false;

  constructor(private readonly options: EmbedderWorkerPoolOptions) {}

  /** Texts waiting for a worker. */
  get queued(): number {
    return this.queuedTexts;
  }

  async embed(
    texts: readonly string[],
    options: { signal?: AbortSignal | undefined; priority?: 'query' | 'bulk' | undefined } = {},
  ): Promise<Float32Array[]> {
    if (this.closed)
      throw new MarketplaceSearchError('provider_unavailable', 'the local embedder is closed');
    options.signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const { batchSize, maxQueuedTexts, dimensions } = this.options;
    if (this.queuedTexts + texts.length > maxQueuedTexts) {
      throw new MarketplaceSearchError(
        'provider_unavailable',
        `the local embedder has ${this.queuedTexts} texts waiting (at most ${maxQueuedTexts}); retry later`,
      );
    }
    const queue = options.priority === 'query' ? this.urgent : this.bulk;
    const tasks: Task[] = [];
    const results: Array<Promise<Float32Array>> = [];
    for (let i = 0; i < texts.length; i += batchSize) {
      results.push(
        new Promise<Float32Array>((resolve, reject) => {
          tasks.push({ texts: texts.slice(i, i + batchSize), resolve, reject, settled: false });
        }),
      );
    }
    for (const task of tasks) {
      queue.push(task);
      this.queuedTexts += task.texts.length;
    }
    const signal = options.signal;
    const onAbort = () => {
      for (const task of tasks) {
        const at = queue.indexOf(task);
        if (at >= 0) {
          queue.splice(at, 1);
          this.queuedTexts -= task.texts.length;
        }
        this.settle(task, undefined, signal?.reason);
      }
      this.holdProcess();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.dispatch();
    try {
      const flat = await Promise.all(results);
      const out: Float32Array[] = [];
      for (const chunk of flat)
        for (let at = 0; at < chunk.length; at += dimensions)
          out.push(chunk.slice(at, at + dimensions));
      return out;
    } catch (error) {
      // The chunks not yet given to a worker are not worth doing any more.
      onAbort();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Stops the workers; what waits fails. */
  async close(): Promise<void> {
    this.closed = true;
    const gone = new MarketplaceSearchError('provider_unavailable', 'the local embedder is closed');
    for (const task of [...this.urgent.splice(0), ...this.bulk.splice(0)])
      this.settle(task, undefined, gone);
    this.queuedTexts = 0;
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (!this.closed && (this.urgent.length > 0 || this.bulk.length > 0)) {
      const slot = this.freeSlot();
      if (!slot) break;
      const task = (this.urgent.shift() ?? this.bulk.shift()) as Task;
      this.queuedTexts -= task.texts.length;
      if (task.settled) continue;
      slot.task = task;
      slot.worker.postMessage({ texts: task.texts.map((t) => (t.trim() === '' ? '-' : t)) });
    }
    this.holdProcess();
  }

  /**
   * While work waits or runs, the workers keep the process alive (a script awaiting an embedding
   * must not exit); idle, they do not (a forgotten embedder must not keep it running).
   */
  private holdProcess(): void {
    const busy = this.urgent.length > 0 || this.bulk.length > 0;
    for (const slot of this.slots) {
      if (busy || slot.task !== null) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** A ready worker without a task, or null (a new one is started while under `threads`). */
  private freeSlot(): Slot | null {
    const free = this.slots.find((s) => s.ready && s.task === null);
    if (free) return free;
    if (this.slots.length < Math.max(1, this.options.threads)) this.spawn();
    return null;
  }

  private spawn(): void {
    const worker = new Worker(this.options.file, {
      // Plain JavaScript: none of the parent's loader flags (tsx, --conditions) apply to it.
      execArgv: [],
      workerData: { ...this.options.workerData, dimensions: this.options.dimensions },
    });
    const slot: Slot = { worker, ready: false, task: null };
    this.slots.push(slot);
    worker.on(
      'message',
      (message: { ready?: boolean; error?: string; vectors?: Float32Array; id?: number }) => {
        if (message.ready === true) {
          slot.ready = true;
          this.dispatch();
          return;
        }
        if (message.ready === false) {
          // The model cannot load: fail what waits rather than retry forever.
          this.drop(slot);
          const error = new MarketplaceSearchError(
            'provider_unavailable',
            this.options.loadFailure,
            {
              cause: new Error(message.error),
            },
          );
          for (const task of [...this.urgent.splice(0), ...this.bulk.splice(0)])
            this.settle(task, undefined, error);
          this.queuedTexts = 0;
          this.holdProcess();
          return;
        }
        const task = slot.task;
        slot.task = null;
        if (task) {
          if (message.error !== undefined) {
            this.settle(
              task,
              undefined,
              new MarketplaceSearchError(
                'provider_unavailable',
                `the local embedder failed: ${message.error}`,
              ),
            );
          } else {
            this.settle(task, message.vectors as Float32Array);
          }
        }
        this.dispatch();
      },
    );
    const died = (cause: unknown) => {
      const task = slot.task;
      this.drop(slot);
      if (task)
        this.settle(
          task,
          undefined,
          new MarketplaceSearchError('provider_unavailable', 'a local embedder worker stopped', {
            cause,
          }),
        );
      this.dispatch();
    };
    worker.on('error', died);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) died(new Error(`exit code ${code}`));
    });
  }

  private drop(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    slot.task = null;
    void slot.worker.terminate();
  }

  private settle(task: Task, vectors: Float32Array | undefined, error?: unknown): void {
    if (task.settled) return;
    task.settled = true;
    if (vectors) task.resolve(vectors);
    else task.reject(error);
  }
}
