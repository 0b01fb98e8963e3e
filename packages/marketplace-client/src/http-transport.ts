import {
  createHttpTransport,
  describeCause,
  type FallbackProblem,
  type TransportErrors,
  type TransportSettings,
} from '@dcg/client-transport';
import * as z from 'zod/mini';
import {
  MarketplaceClientError,
  type MarketplaceIssue,
  MarketplaceProblemError,
  type ProblemDetails,
} from './marketplace-client-error';

export type { TransportSettings };

/** One GET of the transport (every call of this client reads). */
export interface TransportCall<S extends z.core.$ZodType> {
  readonly path: string;
  readonly searchParams?: Record<string, string | number | undefined>;
  readonly schema: S;
  readonly signal?: AbortSignal | undefined;
}

export type Transport = <S extends z.core.$ZodType>(call: TransportCall<S>) => Promise<z.output<S>>;

/**
 * The GET transport of `@dcg/client-transport` with this package's errors: every call is a GET,
 * so network failures and 408/429/500/502/503/504 are retried (Retry-After honoured).
 *
 * @example
 * const get = createTransport({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10_000, retries: 2, maxResponseBytes: 1e7 });
 */
export function createTransport(settings: TransportSettings): Transport {
  const send = createHttpTransport(settings, marketplaceErrors);
  return async function get<S extends z.core.$ZodType>(
    call: TransportCall<S>,
  ): Promise<z.output<S>> {
    const searchParams: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(call.searchParams ?? {})) {
      if (value !== undefined) searchParams[key] = value;
    }
    return send({
      method: 'get',
      path: call.path,
      searchParams,
      accept: 'application/json',
      retry: 'idempotent',
      signal: call.signal,
      parse: (json) => {
        const parsed = z.safeParse(call.schema, json);
        if (parsed.success) return { success: true, data: parsed.data };
        const issues = parsed.error.issues.map((issue) => ({
          code: issue.code,
          path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
          message: issue.message,
        }));
        return { success: false, issues };
      },
    });
  };
}

const marketplaceErrors: TransportErrors<MarketplaceIssue> = {
  aborted: (url, cause) =>
    new MarketplaceClientError('aborted', `request to ${url} was aborted`, { cause }),
  timeout: (url, timeoutMs, cause) =>
    new MarketplaceClientError('timeout', `${url} did not answer within ${timeoutMs} ms`, {
      cause,
    }),
  network: (url, cause) => {
    const reason = describeCause(cause);
    return new MarketplaceClientError(
      'network',
      `cannot reach ${url}${reason ? `: ${reason}` : ''}`,
      {
        cause,
      },
    );
  },
  problem: (status, document, fallback, cause) =>
    new MarketplaceProblemError(status, problemFrom(status, document, fallback), { cause }),
  invalid,
  rejected: invalid,
  isOwn: MarketplaceClientError.isInstance,
};

/** governance-api's problem document, unknown members kept; the status line is authoritative. */
function problemFrom(status: number, document: unknown, fallback: FallbackProblem): ProblemDetails {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return fallback;
  const problem = document as Record<string, unknown>;
  return {
    ...problem,
    ...(typeof problem.title === 'string' || !fallback.title ? {} : { title: fallback.title }),
    status,
  } as ProblemDetails;
}

function invalid(
  url: string,
  issues: readonly MarketplaceIssue[],
  cause?: unknown,
): MarketplaceClientError {
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  return new MarketplaceClientError(
    'invalid_response',
    `malformed answer from ${url}: ${summary}`,
    {
      cause,
      issues,
    },
  );
}
