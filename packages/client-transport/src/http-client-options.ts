/** Options every dcg HTTP client takes (each client documents its own defaults). */
export interface HttpClientOptions {
  /** Base URL of the API, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  readonly baseUrl: string | URL;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string | undefined;
  /** Deadline of each call, retries and reading the answer included. Default 10 000 ms. */
  readonly timeoutMs?: number | undefined;
  /** Retries of a call that may be repeated (see the client's README). Default 2. */
  readonly retries?: number | undefined;
  /** Largest answer accepted, in bytes. */
  readonly maxResponseBytes?: number | undefined;
  /** A `fetch` to use instead of the global one. */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call; it then rejects with the client's abort error (code `aborted`). */
  readonly signal?: AbortSignal | undefined;
}
