import { CodedError, hasBrand } from '@dcg/coded-error';
import { readText } from './read-body';
import type { TransportIssue } from './transport-errors';

/** What went wrong in one {@link exchange}. */
export type ExchangeFailureCode =
  | 'aborted'
  | 'timeout'
  | 'network'
  | 'redirect_refused'
  | 'too_large'
  | 'not_utf8';

const EXCHANGE_ERROR = Symbol.for('dcg.client-transport.ExchangeError');

/**
 * A failure of {@link exchange}, with a `code` to branch on and a message that completes the
 * sentence "The server at URL …" (`answered 308 redirecting to …; redirects are not followed`).
 *
 * @example
 * if (ExchangeError.isInstance(error) && error.code === 'timeout') retry();
 */
export class ExchangeError extends CodedError<ExchangeFailureCode> {
  constructor(code: ExchangeFailureCode, message: string, options: { cause?: unknown } = {}) {
    super(EXCHANGE_ERROR, code, message, options);
    this.name = 'ExchangeError';
  }

  static isInstance = hasBrand<ExchangeError>(EXCHANGE_ERROR);
}

/** Limits of one {@link exchange}. */
export interface ExchangeOptions {
  /** Bounds the whole exchange: connecting, redirects and reading the answer. */
  readonly timeoutMs: number;
  /** Longest answer read; a longer one fails with `too_large` (declared or while reading). */
  readonly maxResponseBytes: number;
  /**
   * `refuse` (default): a 3xx with `Location` fails with `redirect_refused`, so that a request
   * (and what it carries) never goes where the server points (SSRF). `same-origin`: up to 5
   * redirects on the first URL's scheme, host and port.
   */
  readonly redirects?: 'refuse' | 'same-origin';
  readonly signal?: AbortSignal | undefined;
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** An answer of any status, its body read as text within the limits. */
export interface ExchangeAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly text: string;
}

const MAX_REDIRECTS = 5;

/**
 * One HTTP request and its answer, within a deadline and a size cap, redirects refused unless
 * asked for. Any status is an answer (the caller decides what a 4xx means); what kept an answer
 * from arriving or being read throws an {@link ExchangeError}. The building block of a client
 * that is not a JSON API client (for those, see `createHttpTransport`).
 *
 * @example
 * const answer = await exchange('http://127.0.0.1:8093/v1/validate', { method: 'POST', body }, { timeoutMs: 30_000, maxResponseBytes: 4 << 20 });
 */
export async function exchange(
  url: string,
  init: RequestInit,
  options: ExchangeOptions,
): Promise<ExchangeAnswer> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const failed = (cause: unknown): ExchangeError => {
    if (ExchangeError.isInstance(cause)) return cause;
    if (options.signal?.aborted) return new ExchangeError('aborted', 'was aborted', { cause });
    if (timeout.aborted) {
      return new ExchangeError('timeout', `gave no answer within ${options.timeoutMs} ms`, {
        cause,
      });
    }
    return new ExchangeError('network', `cannot be reached: ${(cause as Error).message}`, {
      cause,
    });
  };
  let response: Response;
  try {
    let target = url;
    for (let hops = 0; ; hops++) {
      response = await doFetch(target, { ...init, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) break;
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, target);
      const sameOrigin = next.origin === new URL(url).origin;
      if (options.redirects !== 'same-origin' || !sameOrigin || hops >= MAX_REDIRECTS) {
        const why =
          options.redirects !== 'same-origin'
            ? ''
            : sameOrigin
              ? ` beyond ${MAX_REDIRECTS} hops`
              : ' to another origin';
        throw new ExchangeError(
          'redirect_refused',
          `answered ${response.status} redirecting to ${next.origin}${next.pathname}; redirects are not followed${why}`,
        );
      }
      target = next.href;
    }
  } catch (error) {
    throw failed(error);
  }
  try {
    const text = await readText(
      response,
      options.maxResponseBytes,
      (issue: TransportIssue, cause) =>
        new ExchangeError(
          issue.code === 'too_large' ? 'too_large' : 'not_utf8',
          issue.code === 'too_large'
            ? `answered more than ${options.maxResponseBytes} bytes; the answer was not read`
            : `answered a body that is not UTF-8`,
          { cause },
        ),
    );
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text,
    };
  } catch (error) {
    throw failed(error);
  }
}
