import ky, { HTTPError, type KyInstance } from 'ky';
import type { z } from 'zod';
import {
  MarketplaceClientError,
  type MarketplaceIssue,
  MarketplaceProblemError,
  type ProblemDetails,
} from './marketplace-client-error';

/** Settings of the HTTP layer, validated by `createMarketplaceClient`. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxResponseBytes: number;
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** One GET of the transport (every call of this client reads). */
export interface TransportCall<S extends z.ZodType> {
  readonly path: string;
  readonly searchParams?: Record<string, string | number | undefined>;
  readonly schema: S;
  readonly signal?: AbortSignal | undefined;
}

export type Transport = <S extends z.ZodType>(call: TransportCall<S>) => Promise<z.output<S>>;

const maxProblemBytes = 64 * 1024;

/**
 * Builds the GET transport: one deadline over retries and reading the body, a size cap, JSON
 * parsing, validation, and errors mapped to this package's classes. Every call is a GET, so
 * network failures and 408/429/500/502/503/504 are retried (Retry-After honoured by ky).
 *
 * @example
 * const get = createTransport({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10_000, retries: 2, maxResponseBytes: 1e7 });
 */
export function createTransport(settings: TransportSettings): Transport {
  const api: KyInstance = ky.create({
    prefixUrl: settings.baseUrl,
    timeout: false,
    headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  return async function get<S extends z.ZodType>(call: TransportCall<S>): Promise<z.output<S>> {
    const url = `${settings.baseUrl}/${call.path}`;
    const userSignal = call.signal;
    if (userSignal?.aborted) throw aborted(url, userSignal.reason);
    const timeoutSignal = AbortSignal.timeout(settings.timeoutMs);
    const signal = userSignal ? AbortSignal.any([userSignal, timeoutSignal]) : timeoutSignal;
    const searchParams: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(call.searchParams ?? {})) {
      if (value !== undefined) searchParams[key] = value;
    }
    try {
      const response = await api.get(call.path, {
        signal,
        searchParams,
        headers: { accept: 'application/json' },
        retry: {
          limit: settings.retries,
          methods: ['get'],
          statusCodes: [408, 429, 500, 502, 503, 504],
          afterStatusCodes: [429, 503],
          backoffLimit: 5_000,
          shouldRetry: () => (signal.aborted ? false : undefined),
        },
      });
      const text = await readText(response, settings.maxResponseBytes, url);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw invalid(
          url,
          [{ code: 'not_json', path: [], message: 'the answer is not JSON' }],
          cause,
        );
      }
      const parsed = call.schema.safeParse(json);
      if (!parsed.success) {
        throw invalid(
          url,
          parsed.error.issues.map((issue) => ({
            code: issue.code,
            path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
            message: issue.message,
          })),
        );
      }
      return parsed.data;
    } catch (error) {
      if (userSignal?.aborted) throw aborted(url, userSignal.reason);
      if (timeoutSignal.aborted) {
        throw new MarketplaceClientError(
          'TIMEOUT',
          `${url} did not answer within ${settings.timeoutMs} ms`,
          { cause: error },
        );
      }
      if (MarketplaceClientError.isInstance(error)) throw error;
      if (error instanceof HTTPError) {
        throw new MarketplaceProblemError(
          error.response.status,
          await readProblem(error.response),
          {
            cause: error,
          },
        );
      }
      throw new MarketplaceClientError(
        'NETWORK',
        `cannot reach ${url}${error instanceof Error ? `: ${error.message}` : ''}`,
        { cause: error },
      );
    }
  };
}

function aborted(url: string, reason: unknown): MarketplaceClientError {
  return new MarketplaceClientError('ABORTED', `request to ${url} was aborted`, { cause: reason });
}

function invalid(url: string, issues: MarketplaceIssue[], cause?: unknown): MarketplaceClientError {
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  return new MarketplaceClientError(
    'INVALID_RESPONSE',
    `malformed answer from ${url}: ${summary}`,
    {
      cause,
      issues,
    },
  );
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
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const problem = value as Record<string, unknown>;
      return {
        ...problem,
        ...(typeof problem.title === 'string'
          ? {}
          : fallback.title
            ? { title: fallback.title }
            : {}),
        // The status line is authoritative; a body claiming another status is not believed.
        status: response.status,
      } as ProblemDetails;
    }
  } catch {
    // not JSON: a problem made from the status and the text
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? fallback : { ...fallback, detail: flat.slice(0, 200) };
}

async function readText(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
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
  } finally {
    reader.releaseLock();
  }
}

function tooLarge(url: string, maxBytes: number): MarketplaceClientError {
  return invalid(url, [
    { code: 'too_large', path: [], message: `answer larger than ${maxBytes} bytes` },
  ]);
}
