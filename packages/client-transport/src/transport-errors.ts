/** What is wrong with a whole answer, before any JSON in it could be checked (so its path is empty). */
export interface TransportIssue {
  readonly code: 'not_json' | 'not_utf8' | 'too_large';
  readonly path: readonly [];
  readonly message: string;
}

/**
 * The problem document made from the status line (and the body as `detail`) when the body is not
 * one the client accepts. A type, not an interface, so that it fits a client's index signature.
 */
export type FallbackProblem = {
  readonly type: 'about:blank';
  readonly status: number;
  readonly title?: string;
  readonly detail?: string;
};

/**
 * How a client makes its own errors of what went wrong (`I` is the client's issue type, what its
 * `parse` returns); the transport throws what these return.
 */
export interface TransportErrors<I> {
  /** The caller's signal fired; `cause` is its reason. */
  readonly aborted: (url: string, cause: unknown) => Error;
  /** The call did not finish within `timeoutMs`, retries and reading the answer included. */
  readonly timeout: (url: string, timeoutMs: number, cause: unknown) => Error;
  /** The server could not be reached or the connection broke (after the retries allowed). */
  readonly network: (url: string, cause: unknown) => Error;
  /**
   * The server answered an error status. `document` is the parsed JSON body (`undefined` when it
   * was not JSON) for the client to accept as a problem document or not; `fallback` is made from
   * the status line and the body.
   */
  readonly problem: (
    status: number,
    document: unknown,
    fallback: FallbackProblem,
    cause: unknown,
  ) => Error;
  /** A 2xx answer that is too large, not UTF-8 or not JSON. */
  readonly invalid: (url: string, issues: readonly TransportIssue[], cause?: unknown) => Error;
  /** A JSON answer that the call's `parse` rejected. */
  readonly rejected: (url: string, issues: readonly I[]) => Error;
  /** True for the errors these functions make, which the transport lets through as they are. */
  readonly isOwn: (error: unknown) => boolean;
}

/**
 * Says what a network failure was: undici puts the useful part (ECONNREFUSED, ECONNRESET…) on
 * the cause of its `TypeError: fetch failed`.
 *
 * @example
 * describeCause(error); // 'fetch failed (connect ECONNREFUSED 127.0.0.1:9)'
 */
export function describeCause(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const inner = (cause as { cause?: unknown }).cause;
  if (inner instanceof Error) return `${cause.message} (${inner.message})`;
  return cause.message;
}

/**
 * The message of an error answer: status, title and detail, as the client errors say it.
 *
 * @example
 * problemMessage(404, { title: 'Not Found' }); // 'HTTP 404 Not Found'
 */
export function problemMessage(
  status: number,
  problem: { readonly title?: string | undefined; readonly detail?: string | undefined },
): string {
  const title = problem.title ? ` ${problem.title}` : '';
  return `HTTP ${status}${title}${problem.detail ? `: ${problem.detail}` : ''}`;
}
