import { KgClientError, type KgClientErrorCode, KgProblemError } from '@dcg/kg-client';
import { MarketplaceClientError, MarketplaceProblemError } from '@dcg/marketplace-client';
import type { CallToolResult } from '@modelcontextprotocol/server';

const backendNames = {
  marketplace: 'the marketplace (governance-api)',
  kg: 'the knowledge graph (kg-api)',
};

/**
 * Turns a failure of a backend call into a tool error a person understands: `isError` with the
 * problem's title and detail (or what went wrong on the way), never a protocol error. Errors that
 * are not the backends' are rethrown: they are bugs and the SDK reports them.
 *
 * @example
 * return toToolError(new ToolInputError('cursor is not one this server issued'));
 */
export function toToolError(error: unknown): CallToolResult {
  const text = describeFailure(error);
  if (text === undefined) throw error;
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text }] };
  errorCodes.set(result, failureCode(error));
  return result;
}

/** The code of each tool error made by {@link toToolError}, for metrics (never sent). */
const errorCodes = new WeakMap<object, string>();

/**
 * The code of a tool error made by {@link toToolError}: the backend client's code (`timeout`,
 * `network`, `aborted`, `invalid_argument`, `invalid_response`), `http_<status>` for a problem a
 * backend answered, `invalid_input` for a {@link ToolInputError}; undefined for any other result.
 *
 * @example
 * toolErrorCode(toToolError(new ToolInputError('bad cursor'))); // 'invalid_input'
 */
export function toolErrorCode(result: unknown): string | undefined {
  return result !== null && typeof result === 'object' ? errorCodes.get(result) : undefined;
}

function failureCode(error: unknown): string {
  if (error instanceof MarketplaceProblemError || error instanceof KgProblemError) {
    return `http_${error.status}`;
  }
  if (MarketplaceClientError.isInstance(error) || KgClientError.isInstance(error)) {
    return error.code;
  }
  return 'invalid_input';
}

/**
 * The one wrapper of the tool handlers: a backend failure or a `ToolInputError` thrown by the
 * handler becomes a tool error a person understands (see {@link toToolError}); any other error is
 * rethrown, and the SDK reports it.
 *
 * @example
 * server.registerTool('get_system', config, withToolErrors(async ({ systemId }) => toolResult(await read(systemId), 'Found.')));
 */
export function withToolErrors<A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R | CallToolResult> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return toToolError(error);
    }
  };
}

/** The sentence for a backend failure, or undefined when the error is not a backend's. */
export function describeFailure(error: unknown): string | undefined {
  if (error instanceof MarketplaceProblemError || error instanceof KgProblemError) {
    const backend = error instanceof KgProblemError ? backendNames.kg : backendNames.marketplace;
    const title = error.problem.title ?? `HTTP ${error.status}`;
    const detail = error.problem.detail ? `: ${error.problem.detail}` : '';
    return `${title}${detail} (${backend} answered ${error.status})`;
  }
  if (MarketplaceClientError.isInstance(error)) return sentence(backendNames.marketplace, error);
  if (KgClientError.isInstance(error)) return sentence(backendNames.kg, error);
  if (error instanceof ToolInputError) return error.message;
  return undefined;
}

// Both clients share one set of codes (snake_case), so one switch reads either.
function sentence(backend: string, error: { code: KgClientErrorCode; message: string }): string {
  switch (error.code) {
    case 'timeout':
      return `${backend} did not answer in time; try again, or narrow the request`;
    case 'network':
      return `${backend} cannot be reached right now (${error.message})`;
    case 'aborted':
      return 'The request was cancelled';
    case 'invalid_argument':
      return `Invalid argument: ${error.message}`;
    default:
      return `${backend} gave an answer that could not be read (${error.message})`;
  }
}

/**
 * An argument a tool cannot use, found after the input schema passed (an unknown cursor, an id of
 * the wrong form). Reaches the assistant as a tool error with this message.
 *
 * @example
 * throw new ToolInputError('cursor is not one this server issued');
 */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
