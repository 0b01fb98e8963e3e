import { type ProblemDetails, ProblemDetailsSchema } from '@dcg/kg-schema';
import ky, { HTTPError, type KyInstance, type RetryOptions } from 'ky';
import {
  KgAbortError,
  KgClientError,
  KgNetworkError,
  KgProblemError,
  KgResponseError,
  KgTimeoutError,
} from './kg-client-error';

/** Settings of the HTTP layer, already validated by `createKgClient`. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxResponseBytes: number;
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * How a call may be retried. `'idempotent'` (GET search): network failures and 408, 429, 500,
 * 502, 503, 504. `'query'` (POST of a SPARQL query): network failures and 408, 429, and 503 with
 * `Retry-After` only (a 503 without it is the server's query timeout): a
 * query operation is safe by the SPARQL 1.1 protocol, so repeating it cannot change data, but a
 * 500/502/504 usually means the query itself failed or was too slow upstream, and repeating an
 * expensive query would only multiply the load.
 */
export type RetryKind = 'idempotent' | 'query';

/** One call of the transport. */
export interface TransportCall<T> {
  readonly method: 'get' | 'post';
  /** Path relative to the base URL, without a leading slash. */
  readonly path: string;
  readonly searchParams?: Record<string, string | number> | URLSearchParams;
  readonly body?: string;
  readonly contentType?: string;
  readonly accept: string;
  readonly retry: RetryKind;
  readonly signal?: AbortSignal | undefined;
  readonly parse: (
    value: unknown,
  ) => { success: true; data: T } | { success: false; issues: { path: string; message: string }[] };
}

/** Sends one call: signals, retries, timeout, size limit, JSON parsing and validation. */
export type Transport = <T>(call: TransportCall<T>) => Promise<T>;

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
 * const send = createTransport({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10_000, retries: 2, maxResponseBytes: 1e7 });
 */
export function createTransport(settings: TransportSettings): Transport {
  const api: KyInstance = ky.create({
    prefixUrl: settings.baseUrl,
    timeout: false,
    throwHttpErrors: true,
    headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });

  return async function send<T>(call: TransportCall<T>): Promise<T> {
    const url = describeUrl(settings.baseUrl, call.path);
    const userSignal = call.signal;
    if (userSignal?.aborted) throw new KgAbortError(url, { cause: userSignal.reason });
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
          const waitMs = retryAfterMs(error.response.headers.get('retry-after'));
          // A query answered 503 without Retry-After is kg-api's own query timeout
          // (sparql.timeoutMs): the same query would run out of time again.
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
        },
        ...(call.searchParams ? { searchParams: call.searchParams } : {}),
        ...(call.body !== undefined ? { body: call.body } : {}),
      });
      const text = await readText(response, settings.maxResponseBytes, url);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new KgResponseError(
          url,
          [
            {
              path: '$',
              message: `not JSON (${response.headers.get('content-type') ?? 'no content type'}): ${snippet(text)}`,
            },
          ],
          { cause },
        );
      }
      const checked = call.parse(json);
      if (!checked.success) throw new KgResponseError(url, checked.issues);
      return checked.data;
    } catch (error) {
      throw await toKgError(error, {
        url,
        userSignal,
        timeoutSignal,
        timeoutMs: settings.timeoutMs,
      });
    }
  };
}

async function toKgError(
  error: unknown,
  context: {
    url: string;
    userSignal: AbortSignal | undefined;
    timeoutSignal: AbortSignal;
    timeoutMs: number;
  },
): Promise<KgClientError> {
  // The caller's abort wins over everything else: it is what the caller asked for.
  if (context.userSignal?.aborted) {
    return new KgAbortError(context.url, { cause: context.userSignal.reason });
  }
  if (context.timeoutSignal.aborted) {
    return new KgTimeoutError(context.timeoutMs, context.url, { cause: error });
  }
  if (KgClientError.is(error)) return error;
  if (error instanceof HTTPError) {
    return new KgProblemError(error.response.status, await readProblem(error.response));
  }
  return new KgNetworkError(context.url, { cause: error });
}

async function readProblem(response: Response): Promise<ProblemDetails> {
  const fallback: ProblemDetails = {
    type: 'about:blank',
    status: response.status,
    ...(response.statusText ? { title: response.statusText } : {}),
  };
  let text: string;
  try {
    text = await readText(response, maxProblemBytes, response.url);
  } catch {
    return fallback;
  }
  try {
    const parsed = ProblemDetailsSchema.safeParse(JSON.parse(text));
    // The status line is authoritative; a body claiming another status is not believed.
    if (parsed.success) return { ...parsed.data, status: response.status };
  } catch {
    // not JSON: fall through to a problem made from the status and the text
  }
  return text.trim() === '' ? fallback : { ...fallback, detail: snippet(text) };
}

async function readText(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(url, maxBytes);
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch (error) {
    if (error instanceof TypeError && /decode|encoding/i.test(error.message)) {
      throw new KgResponseError(url, [{ path: '$', message: 'body is not valid UTF-8' }], {
        cause: error,
      });
    }
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** Milliseconds a Retry-After header (seconds or an HTTP date) asks to wait, if it is valid. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function tooLarge(url: string, maxBytes: number): KgResponseError {
  return new KgResponseError(url, [{ path: '$', message: `answer larger than ${maxBytes} bytes` }]);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function describeUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}
