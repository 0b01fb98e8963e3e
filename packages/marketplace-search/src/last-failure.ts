/** A structured logger (the http-kit logger fits). */
export interface SearchLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The last failure of the search's background work (embedding, the store, a refresh), which the
 * embeddings status shows; each one is logged as it happens. A failure never fails a deploy or a
 * search: the instances concerned stay pending and are embedded later.
 *
 * @example
 * const failures = new LastFailure(logger);
 * failures.record(new Error('the provider answered 503'));
 * failures.current?.message; // 'the provider answered 503'
 */
export class LastFailure {
  private last: { message: string; at: string } | null = null;

  constructor(private readonly logger?: SearchLogger | undefined) {}

  get current(): { message: string; at: string } | null {
    return this.last;
  }

  record(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.last = { message, at: new Date().toISOString() };
    this.logger?.warn('embedding failed; the instances stay pending', { error: message });
  }
}
