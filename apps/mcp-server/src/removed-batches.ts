/** The first revision without JSON-RPC batches (they were removed in 2025-06-18). */
export const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * Refuses a JSON-RPC batch (an array) sent under a revision that removed batches: the
 * `MCP-Protocol-Version` header names 2025-06-18 or later, or the batch holds an `initialize`
 * asking for such a revision. Answers nothing for anything else (single messages, batches of
 * 2025-03-26 and earlier).
 *
 * @example
 * const refused = refuseRemovedBatch(parsedBody, request.headers);
 * if (refused) return refused;
 */
export function refuseRemovedBatch(parsed: unknown, headers: Headers): Response | undefined {
  if (!Array.isArray(parsed)) return undefined;
  const header = headers.get('mcp-protocol-version');
  const asked = parsed.map((message) =>
    (message as { method?: unknown })?.method === 'initialize'
      ? (message as { params?: { protocolVersion?: unknown } }).params?.protocolVersion
      : undefined,
  );
  const versions = [header, ...asked].filter((v): v is string => typeof v === 'string');
  if (!versions.some((version) => version >= BATCHES_REMOVED_IN)) return undefined;
  return Response.json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: `Invalid Request: JSON-RPC batches were removed in protocol version ${BATCHES_REMOVED_IN}; send one message per request`,
      },
      id: null,
    },
    { status: 400 },
  );
}
