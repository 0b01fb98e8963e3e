import { DEFAULT_MAX_DEPTH, depthIssue, toJsonPath } from '@dcg/contract-schema';
import { GovernanceError, type GovernanceIssue } from '@dcg/governance';
import { type Problem, ProblemError, type ProblemFieldError, problemResponse } from '@dcg/http-kit';
import { MarketplaceSearchError } from '@dcg/marketplace-search';
import type { Context, ErrorHandler } from 'hono';
import type { GovernanceEnv } from './app-env';
import { readBodyText } from './request-body';

const STATUS: Record<GovernanceError['code'], { status: number; title: string }> = {
  invalid_input: { status: 400, title: 'Invalid request' },
  too_large: { status: 413, title: 'Content Too Large' },
  too_deep: { status: 422, title: 'Unprocessable Content' },
  not_found: { status: 404, title: 'Not Found' },
  conflict: { status: 409, title: 'Conflict' },
  unprocessable: { status: 422, title: 'Unprocessable Content' },
  storage_failure: { status: 503, title: 'Storage unavailable' },
  adapter_failure: { status: 502, title: 'Tech adapter failure' },
};

const SEARCH_STATUS: Partial<
  Record<MarketplaceSearchError['code'], { status: number; title: string }>
> = {
  search_unavailable: { status: 409, title: 'Embeddings search is disabled' },
  store_failed: { status: 503, title: 'Embedding storage unavailable' },
  invalid_query: { status: 400, title: 'Invalid search' },
};

/** An entry of a problem's `errors[]`: the location as a JSONPath string, and the issue's code. */
function wireIssue(code: string, path: string, message: string): ProblemFieldError {
  return { path, message, code };
}

/**
 * Where an issue is in the HTTP request: a named argument of a use case travels as a query
 * parameter (`$.query.environment`); anything else is located in the JSON body.
 *
 * @example
 * httpIssuePath({ code: 'required', segments: [], path: '$', parameter: 'environment', message: 'is required' }); // '$.query.environment'
 */
export function httpIssuePath(issue: GovernanceIssue): string {
  return issue.parameter === undefined
    ? toJsonPath(issue.segments)
    : toJsonPath(['query', issue.parameter]);
}

/**
 * The problem details of a domain error: `type` is `urn:dcg:governance:<code>`, `errors[]` carry
 * each issue's code and its location in the request as a JSONPath string.
 *
 * @example
 * governanceProblem(new GovernanceError('not_found', 'No policy with id "p"')).status; // 404
 */
export function governanceProblem(error: GovernanceError): Problem {
  const { status, title } = STATUS[error.code];
  return {
    status,
    title,
    // Storage internals stay in the logs.
    detail:
      error.code === 'storage_failure'
        ? 'The governance storage is unavailable; retry later'
        : error.message,
    type: `urn:dcg:governance:${error.code}`,
    ...(error.issues.length > 0
      ? {
          errors: error.issues.map((issue) =>
            wireIssue(issue.code, httpIssuePath(issue), issue.message),
          ),
        }
      : {}),
  };
}

/**
 * The problem details of a marketplace search error: `type` is
 * `urn:dcg:marketplace-search:<code>`; a provider or store outage is a 503.
 *
 * @example
 * searchProblem(new MarketplaceSearchError('search_unavailable', 'disabled')).status; // 409
 */
export function searchProblem(error: MarketplaceSearchError): Problem {
  const { status, title } = SEARCH_STATUS[error.code] ?? {
    status: 503,
    title: 'Marketplace search unavailable',
  };
  return {
    status,
    title,
    // Store internals stay in the logs; provider messages never hold the key.
    detail:
      error.code === 'store_failed'
        ? 'The embedding storage is unavailable; retry later'
        : error.message,
    type: `urn:dcg:marketplace-search:${error.code}`,
  };
}

/**
 * The error handler of the governance API routes: a {@link GovernanceError} or a
 * {@link MarketplaceSearchError} becomes its problem details, once, here; anything else goes on
 * to the app's handler (`installErrorHandling`).
 *
 * @example
 * api.onError(governanceErrorHandler);
 */
export const governanceErrorHandler: ErrorHandler<GovernanceEnv> = (error, c) => {
  if (MarketplaceSearchError.isInstance(error)) {
    if (error.code === 'store_failed') {
      c.get('logger')?.error('embedding store failure', { error: error.cause ?? error });
    }
    return problemResponse({ instance: c.req.path, ...searchProblem(error) });
  }
  if (!GovernanceError.isInstance(error)) throw error;
  if (error.code === 'storage_failure') {
    c.get('logger')?.error('storage failure', { error: error.cause ?? error });
  }
  return problemResponse({ instance: c.req.path, ...governanceProblem(error) });
};

/**
 * Reads a JSON body; a malformed one is a 400 problem, one nested deeper than the configured
 * depth (`maxJsonDepth` on the context, default 128) a 422 problem: never a 500.
 *
 * @example
 * const body = await readJson(c, 5 * 1024 * 1024);
 */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  return (await readJsonText(c, maxBytes)).value;
}

/**
 * Like {@link readJson}, and also returns the body text it parsed.
 *
 * @example
 * const { text, value } = await readJsonText(c, 5 * 1024 * 1024);
 */
export async function readJsonText(
  c: Context,
  maxBytes: number,
): Promise<{ text: string; value: unknown }> {
  const text = await readBodyText(c, maxBytes);
  if (text.trim() === '') {
    throw new ProblemError({
      status: 400,
      title: 'Invalid request',
      detail: 'The request body is empty; a JSON body is required',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProblemError({
      status: 400,
      title: 'Invalid request',
      detail: `The request body is not valid JSON: ${(error as Error).message}`,
    });
  }
  // JSON.parse is iterative; what reads the value afterwards (validation, storage, pages) recurses.
  const maxDepth = (c as Context<GovernanceEnv>).get('maxJsonDepth') ?? DEFAULT_MAX_DEPTH;
  const deep = depthIssue(value, maxDepth);
  if (deep !== undefined) {
    throw new ProblemError({
      status: 422,
      title: 'Unprocessable Content',
      type: 'urn:dcg:governance:too_deep',
      detail: `The request body is nested deeper than ${maxDepth} levels (limits.maxDepth)`,
      errors: [wireIssue(deep.code, deep.path, deep.message)],
    });
  }
  return { text, value };
}
