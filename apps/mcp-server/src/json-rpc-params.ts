import { type SpecTypeName, specTypeSchemas } from '@modelcontextprotocol/server';

/**
 * The params type of each request method the server answers in every protocol lane (the SDK's
 * neutral spec schemas). Not `initialize` or `logging/setLevel`, which the 2026-07-28 lane removed
 * (there the SDK must answer "method not found" whatever the params, SEP-2575), nor methods of
 * features the server does not offer (subscriptions, completion): those are not found either.
 */
const PARAMS_OF: Record<string, SpecTypeName> = {
  'tools/list': 'PaginatedRequestParams',
  'tools/call': 'CallToolRequestParams',
  'resources/list': 'PaginatedRequestParams',
  'resources/templates/list': 'PaginatedRequestParams',
  'resources/read': 'ReadResourceRequestParams',
  'prompts/list': 'PaginatedRequestParams',
  'prompts/get': 'GetPromptRequestParams',
};

const INVALID_PARAMS = -32602;

/**
 * The JSON-RPC error for a request whose params do not have the shape of its method, or
 * undefined. The SDK checks them too, but answers a failed check as an internal error (-32603);
 * JSON-RPC 2.0 §5.1 says -32602. Only single requests of methods listed here are checked (the
 * rest, batches included, go on to the SDK as they are).
 *
 * @example
 * const error = invalidParams({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } });
 * // { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params for tools/list: …' } }
 */
export function invalidParams(message: unknown): Record<string, unknown> | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) {
    return undefined;
  }
  // Params that are not an object make the request itself invalid: the SDK answers -32600.
  if (params !== undefined && (typeof params !== 'object' || params === null)) return undefined;
  const type = PARAMS_OF[method];
  if (!type) return undefined;
  const schema = specTypeSchemas[type];
  const result = schema['~standard'].validate(params ?? {});
  if (result instanceof Promise || !result.issues) return undefined;
  const issues = result.issues.map((issue) => ({
    path: ['params', ...(issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p))]
      .map(String)
      .join('.'),
    message: issue.message,
  }));
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: INVALID_PARAMS,
      message: `Invalid params for ${method}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      data: { issues },
    },
  };
}
