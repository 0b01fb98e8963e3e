/**
 * The life of a service as its HTTP layer sees it: serving, then draining once a stop began.
 * `startHttpServer` starts the drain when it closes; `/ready` answers 503 from then on, and
 * long-lived responses (event streams) end when `signal` aborts, so that a stop never waits for them.
 *
 * @example
 * const lifecycle = new ServiceLifecycle();
 * app.route('/', healthRoutes({ ready: () => ({ ready: true }), lifecycle }));
 * const server = await startHttpServer(app, { port: 0, lifecycle });
 * await server.close(); // lifecycle.draining is now true
 */
export class ServiceLifecycle {
  readonly #controller = new AbortController();

  /** True once the service began to stop: no new work should start. */
  get draining(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Aborts when the drain begins. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Begins the drain (idempotent). */
  drain(): void {
    if (!this.draining) this.#controller.abort(new Error('the service is stopping'));
  }
}
