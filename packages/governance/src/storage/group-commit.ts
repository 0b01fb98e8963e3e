import { GovernanceError } from '../errors';

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive in one event-loop turn are committed together by `commit` (one
 * transaction), and each caller is answered once that commit has returned. When a batch fails,
 * its items are committed one by one, so one bad item never fails its neighbours.
 *
 * @example
 * const results = new GroupCommit((batch: Row[]) => insertInOneTransaction(batch), { what: 'a result' });
 * const stored = await results.add(row);
 */
export class GroupCommit<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly settled = new Set<() => void>();

  constructor(
    private readonly commit: (batch: I[]) => O[] | Promise<O[]>,
    private readonly options: {
      /** Names the item in the storage failure a caller gets. */
      what: string;
      /** Items per transaction (default 1000). */
      maxBatch?: number;
      /** Transactions in flight at once (default 1). */
      maxConcurrent?: number;
    },
  ) {}

  /** Queues an item; resolves with what `commit` returned for it, after the commit. */
  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Commits everything queued and waits for every commit in flight. */
  async drain(): Promise<void> {
    while (this.waiting.length > 0 || this.inFlight > 0) {
      if (this.waiting.length > 0 && this.inFlight < (this.options.maxConcurrent ?? 1)) {
        this.start();
      } else await new Promise<void>((resolve) => this.settled.add(resolve));
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the I/O of this turn: the requests that arrived together share it.
    setImmediate(() => {
      this.scheduled = false;
      while (this.waiting.length > 0 && this.inFlight < (this.options.maxConcurrent ?? 1)) {
        this.start();
      }
    });
  }

  private start(): void {
    const batch = this.waiting.splice(0, this.options.maxBatch ?? 1000);
    if (batch.length === 0) return;
    this.inFlight++;
    void this.run(batch).finally(() => {
      this.inFlight--;
      for (const resolve of this.settled) resolve();
      this.settled.clear();
      if (this.waiting.length > 0) this.schedule();
    });
  }

  private async run(batch: Array<Waiting<I, O>>): Promise<void> {
    try {
      const out = await this.commit(batch.map((w) => w.item));
      for (const [i, w] of batch.entries()) w.resolve(out[i]!);
    } catch (error) {
      if (batch.length > 1) {
        for (const w of batch) await this.run([w]);
        return;
      }
      batch[0]!.reject(
        GovernanceError.isInstance(error)
          ? error
          : new GovernanceError('storage_failure', `Failed to store ${this.options.what}`, {
              cause: error,
            }),
      );
    }
  }
}
