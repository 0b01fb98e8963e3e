import ky, { HTTPError, type KyInstance, type RetryOptions } from 'ky';
import { readText, snippet } from './read-body';
import { retryAfterMs } from './retry-after';
import type { FallbackProblem, TransportErrors } from './transport-errors';

/** Settings of the HTTP layer, already validated by the client. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxResponseBytes: number;
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/**
 * How a call may be retried. `'idempotent'` (a GET): network failures and 408, 429, 500, 502,
 * 503, 504. `'query'` (POST of a SPARQL query): network failures and 408, 429, and 503 with
 * `Retry-After` only (a 503 without it is the server's query timeout): a query operation is safe
 * by the SPARQL 1.1 protocol, so repeating it cannot change data, but a 500/502/504 usually means
 * the query itself failed or was too slow upstream, and repeating an expensive query would only
 * multiply the load.
 */
export type RetryKind = 'idempotent' | 'query';

/** One call of the transport; `parse` checks the JSON answer (`I`: the client's issue type). */
export interface HttpCall<T, I> {
  readonly method: 'get' | 'post' | 'put';
  /** Path relative to the base URL, without a leading slash. */
  readonly path: string;
  readonly searchParams?: Record<string, string | number> | URLSearchParams;
  /** A string, bytes, or a stream of bytes (an upload; streams need Node or HTTP/2). */
  readonly body?: string | Uint8Array | ReadableStream<Uint8Array>;
  /** Extra request headers (`content-length` of a streamed body). */
  readonly headers?: Record<string, string>;
  readonly contentType?: string;
  readonly accept: string;
  readonly retry: RetryKind;
  readonly signal?: AbortSignal | undefined;
  readonly parse: (value: unknown) => { success: true; data: T } | { success: false; issues: I[] };
}

/** Sends one call: signals, retries, timeout, size limit, JSON parsing and validation. */
export type HttpTransport<I> = <T>(call: HttpCall<T, I>) => Promise<T>;

const retryStatuses: Record<RetryKind, number[]> = {
  idempotent: [408, 429, 500, 502, 503, 504],
  query: [408, 429, 503],
};
const maxProblemBytes = 64 * 1024;

/**
 * Builds the transport of a client on one `ky` instance. The timeout is ours, not ky's: ky's
 * covers only the wait for response headers of one attempt, while `timeoutMs` here bounds the
 * whole call, retries, back-off and reading the body included, which is what a caller means.
 *
 * @example
 * const send = createHttpTransport({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10_000, retries: 2, maxResponseBytes: 1e7 }, errors);
 */
export function createHttpTransport<I>(
  settings: TransportSettings,
  errors: TransportErrors<I>,
): HttpTransport<I> {
  const api: KyInstance = ky.create({
    prefixUrl: settings.baseUrl,
    timeout: false,
    throwHttpErrors: true,
    headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });

  return async function send<T>(call: HttpCall<T, I>): Promise<T> {
    const url = `${settings.baseUrl.replace(/\/+$/, '')}/${call.path}`;
    const userSignal = call.signal;
    if (userSignal?.aborted) throw errors.aborted(url, userSignal.reason);
    const deadline = Date.now() + settings.timeoutMs;
    const timeoutSignal = AbortSignal.timeout(settings.timeoutMs);
    const signal = userSignal ? AbortSignal.any([userSignal, timeoutSignal]) : timeoutSignal;
    const retry: RetryOptions = {
      limit: settings.retries,
      methods: [call.method],
      statusCodes: retryStatuses[call.retry],
      afterStatusCodes: [429, 503],
      backoffLimit: 5_000,
      // Never retry once the caller aborted or the deadline passed, nor when the server asks to
      // wait beyond the deadline: its answer (e.g. 503 with the reason) is more useful than a
      // timeout after waiting in vain.
      shouldRetry: ({ error }) => {
        if (signal.aborted) return false;
        if (error instanceof HTTPError) {
          const waitMs = retryAfterMs(error.response.headers);
          // A query answered 503 without Retry-After is the server's own query timeout: the
          // same query would run out of time again.
          if (call.retry === 'query' && error.response.status === 503 && waitMs === undefined) {
            return false;
          }
          if (waitMs !== undefined && Date.now() + waitMs >= deadline) return false;
        }
        return undefined;
      },
    };
    try {
      const response = await api(call.path, {
        method: call.method,
        signal,
        retry,
        headers: {
          accept: call.accept,
          ...(call.contentType ? { 'content-type': call.contentType } : {}),
          ...call.headers,
        },
        // ky and fetch skip what is undefined; `duplex` is what a streamed body needs (not in
        // ky's types), allowed and ignored for other bodies. One object: bytes of the browser bundle.
        ...({ searchParams: call.searchParams, body: call.body, duplex: 'half' } as object),
      });
      const text = await readText(response, settings.maxResponseBytes, (issue, cause) =>
        errors.invalid(url, [issue], cause),
      );
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        const type = response.headers.get('content-type') ?? 'no content type';
        const message = `not JSON (${type}): ${snippet(text)}`;
        throw errors.invalid(url, [{ code: 'not_json', path: [], message }], cause);
      }
      const checked = call.parse(json);
      if (!checked.success) throw errors.rejected(url, checked.issues);
      return checked.data;
    } catch (error) {
      // The caller's abort wins over everything else: it is what the caller asked for.
      if (userSignal?.aborted) throw errors.aborted(url, userSignal.reason);
      if (timeoutSignal.aborted) throw errors.timeout(url, settings.timeoutMs, error);
      if (errors.isOwn(error)) throw error;
      if (error instanceof HTTPError) {
        const { document, fallback } = await readProblem(error.response);
        throw errors.problem(error.response.status, document, fallback, error);
      }
      throw errors.network(url, error);
    }
  };
}

/** The JSON body of an error answer (if it is JSON), and a problem made from the status line. */
async function readProblem(
  response: Response,
): Promise<{ document: unknown; fallback: FallbackProblem }> {
  let fallback: FallbackProblem = {
    type: 'about:blank',
    status: response.status,
    ...(response.statusText ? { title: response.statusText } : {}),
  };
  let document: unknown;
  try {
    const text = await readText(response, maxProblemBytes, (issue) => issue);
    if (text.trim()) fallback = { ...fallback, detail: snippet(text) };
    document = JSON.parse(text);
  } catch {
    // Unreadable or not JSON: the problem made from the status line (and the text, if any).
  }
  return { document, fallback };
}
