/** Why {@link QueryAdmission.enter} refused a query. */
export type AdmissionRefusal =
  | { reason: 'queue-full'; retryAfterSeconds: number }
  | { reason: 'deadline' }
  | { reason: 'aborted' };

interface Waiter {
  deadline: number;
  grant: (release: () => void) => void;
  refuse: (refusal: AdmissionRefusal) => void;
}

/**
 * Query admission: at most `maxConcurrent` queries evaluate at once, at most `maxQueued` wait
 * (first come, first served); beyond that a query is refused at once with the seconds until the
 * earliest running query must have ended (its deadline), for `Retry-After`. A waiting query whose
 * deadline passes, or whose client goes away, leaves the queue.
 *
 * @example
 * const admission = new QueryAdmission({ maxConcurrent: 4, maxQueued: 32 });
 * const entered = await admission.enter(Date.now() + 10_000, request.signal);
 * if ('reason' in entered) return refuse(entered);
 * try { await evaluate(…); } finally { entered.release(); }
 */
export class QueryAdmission {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  /** Deadlines of the queries running now. */
  readonly #running = new Set<{ deadline: number }>();
  readonly #queue: Waiter[] = [];

  constructor(options: { maxConcurrent: number; maxQueued: number }) {
    this.#maxConcurrent = options.maxConcurrent;
    this.#maxQueued = options.maxQueued;
  }

  /** Queries running and waiting now. */
  get load(): { running: number; queued: number } {
    return { running: this.#running.size, queued: this.#queue.length };
  }

  /** Waits for a slot until `deadline` (epoch ms); resolves with `release`, or a refusal. */
  enter(
    deadline: number,
    signal?: AbortSignal,
  ): Promise<{ release: () => void } | AdmissionRefusal> {
    if (signal?.aborted) return Promise.resolve({ reason: 'aborted' });
    if (this.#running.size < this.#maxConcurrent) return Promise.resolve(this.#admit(deadline));
    if (this.#queue.length >= this.#maxQueued) {
      let earliest = Number.POSITIVE_INFINITY;
      for (const entry of this.#running) earliest = Math.min(earliest, entry.deadline);
      const seconds = Math.ceil((earliest - Date.now()) / 1000);
      return Promise.resolve({
        reason: 'queue-full',
        retryAfterSeconds: Number.isFinite(seconds) ? Math.max(1, seconds) : 1,
      });
    }
    return new Promise((resolve) => {
      const leave = (refusal: AdmissionRefusal) => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(refusal);
      };
      const waiter: Waiter = {
        deadline,
        grant: (release) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve({ release });
        },
        refuse: leave,
      };
      const onAbort = () => leave({ reason: 'aborted' });
      const timer = setTimeout(
        () => leave({ reason: 'deadline' }),
        Math.max(0, deadline - Date.now()),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #admit(deadline: number): { release: () => void } {
    const entry = { deadline };
    this.#running.add(entry);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#running.delete(entry);
        const next = this.#queue.shift();
        if (next) next.grant(this.#admit(next.deadline).release);
      },
    };
  }
}
