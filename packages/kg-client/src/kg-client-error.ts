import { type ClientErrorCode, describeCause, problemMessage } from '@dcg/client-transport';
import { CodedError, hasBrand } from '@dcg/coded-error';
import type { ProblemDetails } from '@dcg/kg-schema';

const marker = Symbol.for('dcg.kg-client.error');

/** What went wrong, as a stable string a caller can switch on. */
export type KgClientErrorCode = ClientErrorCode;

/**
 * Base of every error `@dcg/kg-client` throws: a `code`, a message for people and the `cause`.
 * Recognised across copies of the package with {@link KgClientError.isInstance}.
 *
 * @example
 * try { await client.search('water'); }
 * catch (error) { if (KgClientError.isInstance(error) && error.code === 'timeout') retryLater(); }
 */
export class KgClientError extends CodedError<KgClientErrorCode> {
  constructor(code: KgClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(marker, code, message, options);
    this.name = 'KgClientError';
  }

  /** True for any error of this package, also one thrown by another copy of it. */
  static isInstance = hasBrand<KgClientError>(marker);
}

/**
 * The server answered with an error status. `problem` holds its RFC 9457 problem details (or
 * details made from the status when the body was not a problem document). It has no `cause`:
 * the status and the problem are all the answer said, and the HTTP library's error would only
 * add its request and response objects to what Node prints of an uncaught error.
 *
 * @example
 * catch (error) { if (error instanceof KgProblemError && error.status === 403) console.log(error.problem.detail); }
 */
export class KgProblemError extends KgClientError {
  declare readonly status: number;
  declare readonly problem: ProblemDetails;

  constructor(status: number, problem: ProblemDetails, options?: { cause?: unknown }) {
    super('problem', problemMessage(status, problem), options);
    // Declared members set before `name`: the own-property order class fields gave, fewer bytes.
    this.status = status;
    this.problem = problem;
    this.name = 'KgProblemError';
  }
}

/**
 * The call did not finish within `timeoutMs` (all attempts and reading the answer included).
 *
 * @example
 * catch (error) { if (error instanceof KgTimeoutError) console.log(`gave up after ${error.timeoutMs} ms`); }
 */
export class KgTimeoutError extends KgClientError {
  declare readonly timeoutMs: number;

  constructor(timeoutMs: number, url: string, options?: { cause?: unknown }) {
    super('timeout', `${url} did not answer within ${timeoutMs} ms`, options);
    this.timeoutMs = timeoutMs;
    this.name = 'KgTimeoutError';
  }
}

/**
 * The caller's `AbortSignal` fired; `cause` is the signal's reason.
 *
 * @example
 * catch (error) { if (error instanceof KgAbortError) return; }
 */
export class KgAbortError extends KgClientError {
  constructor(url: string, options?: { cause?: unknown }) {
    super('aborted', `request to ${url} was aborted`, options);
    this.name = 'KgAbortError';
  }
}

/**
 * The server could not be reached or the connection broke (after the retries allowed).
 *
 * @example
 * catch (error) { if (error instanceof KgNetworkError) console.log('is the knowledge graph up?', error.cause); }
 */
export class KgNetworkError extends KgClientError {
  constructor(url: string, options?: { cause?: unknown }) {
    const reason = describeCause(options?.cause);
    super('network', `cannot reach ${url}${reason ? `: ${reason}` : ''}`, options);
    this.name = 'KgNetworkError';
  }
}

/**
 * The server answered 2xx with something that is not what the API promises (not JSON, wrong shape,
 * too large). `issues` lists what is wrong, by JSON path.
 *
 * @example
 * catch (error) { if (error instanceof KgResponseError) console.log(error.issues); }
 */
export class KgResponseError extends KgClientError {
  declare readonly issues: readonly { path: string; message: string }[];

  constructor(
    url: string,
    issues: readonly { path: string; message: string }[],
    options?: { cause?: unknown },
  ) {
    const summary = issues
      .slice(0, 3)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join('; ');
    super('invalid_response', `malformed answer from ${url}: ${summary}`, options);
    this.issues = issues;
    this.name = 'KgResponseError';
  }
}
