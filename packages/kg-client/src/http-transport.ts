import {
  createHttpTransport,
  type HttpCall,
  type HttpTransport,
  type RetryKind,
  type TransportErrors,
  type TransportSettings,
} from '@dcg/client-transport';
import { type ProblemDetails, ProblemDetailsSchema, schemaIssues } from '@dcg/kg-schema';
import type * as z from 'zod/mini';
import {
  KgAbortError,
  KgClientError,
  KgNetworkError,
  KgProblemError,
  KgResponseError,
  KgTimeoutError,
} from './kg-client-error';

export type { RetryKind, TransportSettings };

/** What is wrong in an answer, by JSON path (`$.results[1]`). */
interface KgIssue {
  path: string;
  message: string;
}

/** One call of the transport; `parse` checks the JSON answer. */
export type TransportCall<T> = HttpCall<T, KgIssue>;

/** Sends one call: signals, retries, timeout, size limit, JSON parsing and validation. */
export type Transport = HttpTransport<KgIssue>;

/**
 * The transport of `@dcg/client-transport` with this package's errors.
 *
 * @example
 * const send = createTransport({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10_000, retries: 2, maxResponseBytes: 1e7 });
 */
export function createTransport(settings: TransportSettings): Transport {
  return createHttpTransport(settings, kgErrors);
}

const kgErrors: TransportErrors<KgIssue> = {
  aborted: (url, cause) => new KgAbortError(url, { cause }),
  timeout: (url, timeoutMs, cause) => new KgTimeoutError(timeoutMs, url, { cause }),
  network: (url, cause) => new KgNetworkError(url, { cause }),
  // No cause: the status and the problem are all the answer said (see KgProblemError).
  problem: (status, document, fallback) => {
    const parsed = ProblemDetailsSchema.safeParse(document);
    // The status line is authoritative; a body claiming another status is not believed.
    const problem: ProblemDetails = parsed.success ? { ...parsed.data, status } : fallback;
    return new KgProblemError(status, problem);
  },
  invalid: (url, issues, cause) =>
    new KgResponseError(
      url,
      issues.map((issue) => ({ path: '$', message: issue.message })),
      { cause },
    ),
  rejected: (url, issues) => new KgResponseError(url, issues),
  isOwn: KgClientError.isInstance,
};

/**
 * The `parse` of a call that answers one wire schema: the checked value, or its issues by path.
 *
 * @example
 * transport({ ..., parse: parseWith(SearchResponseSchema) });
 */
export function parseWith<S extends z.ZodMiniType>(schema: S): TransportCall<z.output<S>>['parse'] {
  return (value) => {
    const parsed = schema.safeParse(value);
    // zod's success answer is already `{ success: true, data }`.
    return parsed.success ? parsed : { success: false, issues: schemaIssues(parsed.error.issues) };
  };
}
