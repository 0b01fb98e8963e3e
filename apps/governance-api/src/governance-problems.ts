import { DEFAULT_MAX_DEPTH, depthIssue } from '@dcg/contract-schema';
import { GovernanceError } from '@dcg/governance';
import { type Logger, ProblemError } from '@dcg/http-kit';
import type { Context } from 'hono';
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

/**
 * Runs a domain call and turns a GovernanceError into the matching problem details.
 *
 * @example
 * const policy = await withProblems(() => governance.policies.get(id));
 */
export async function withProblems<T>(fn: () => Promise<T>, logger?: Logger): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!GovernanceError.is(error)) throw error;
    if (error.code === 'storage_failure')
      logger?.error('storage failure', { error: error.cause ?? error });
    const { status, title } = STATUS[error.code];
    throw new ProblemError(
      {
        status,
        title,
        // Storage internals stay in the logs.
        detail:
          error.code === 'storage_failure'
            ? 'The governance storage is unavailable; retry later'
            : error.message,
        type: `urn:dcg:governance:${error.code}`,
        ...(error.issues.length > 0 ? { errors: error.issues } : {}),
      },
      { cause: error },
    );
  }
}

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
      errors: [deep],
    });
  }
  return { text, value };
}
