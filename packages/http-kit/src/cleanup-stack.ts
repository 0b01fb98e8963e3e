/**
 * What a service start-up opened, closed in the reverse order: when a later step of the start-up
 * fails (`orUnwind`), and when the service stops (`run`). One list instead of a `catch` per step
 * that repeats the closes of every step before it.
 *
 * @example
 * const cleanup = new CleanupStack();
 * const store = await openStore();
 * cleanup.defer(() => store.close());
 * const limits = await cleanup.orUnwind(openSharedLimits({ pool: store.pool }));
 * return { close: () => cleanup.run() };
 */
export class CleanupStack {
  readonly #steps: (() => unknown)[] = [];

  /** Adds a step; it runs before the steps added earlier. */
  defer(step: () => unknown): void {
    this.#steps.push(step);
  }

  /** Runs every step, the last added first, once each. */
  async run(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) await step();
  }

  /** Awaits `work`; when it fails, runs the steps, then throws its error. */
  async orUnwind<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      await this.run();
      throw error;
    }
  }
}
