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
  readonly #firstSteps: (() => unknown)[] = [];

  /** Adds a step; it runs before the steps added earlier. */
  defer(step: () => unknown): void {
    this.#steps.push(step);
  }

  /**
   * Adds a step that runs before every step of {@link defer}, whenever it was added: a server
   * that listens before the rest is built still stops taking requests before what they use closes.
   */
  deferFirst(step: () => unknown): void {
    this.#firstSteps.push(step);
  }

  /** Runs every step once: those of `deferFirst`, then the others, each list the last added first. */
  async run(): Promise<void> {
    const steps = [...this.#firstSteps.splice(0).reverse(), ...this.#steps.splice(0).reverse()];
    for (const step of steps) await step();
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
