import { readRequestBody } from '@modelcontextprotocol/server';

/** The first revision without JSON-RPC batches (they were removed in 2025-06-18). */
export const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * Reads a POST body to `/mcp` once, and refuses a JSON-RPC batch (an array) sent under a revision
 * that removed batches: the `MCP-Protocol-Version` header names 2025-06-18 or later, or the batch
 * holds an `initialize` asking for such a revision. Answers the parsed body otherwise (handed to
 * the SDK as `parsedBody`, so it is not parsed twice), or nothing when it cannot be read (too
 * large, not JSON: the SDK gives those their own answers).
 *
 * @example
 * const checked = await refuseRemovedBatches(request, maxRequestBytes);
 * if (checked?.refused) return checked.refused;
 */
export async function refuseRemovedBatches(
  request: Request,
  maxBytes: number,
): Promise<{ refused: Response } | { parsedBody: unknown } | undefined> {
  if (request.method !== 'POST' || request.body === null) return undefined;
  let parsed: unknown;
  try {
    const body = await readRequestBody(request.clone(), maxBytes);
    if (body.tooLarge) return undefined;
    parsed = JSON.parse(body.text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return { parsedBody: parsed };
  const header = request.headers.get('mcp-protocol-version');
  const asked = parsed.map((message) =>
    (message as { method?: unknown })?.method === 'initialize'
      ? (message as { params?: { protocolVersion?: unknown } }).params?.protocolVersion
      : undefined,
  );
  const versions = [header, ...asked].filter((v): v is string => typeof v === 'string');
  if (!versions.some((version) => version >= BATCHES_REMOVED_IN)) return { parsedBody: parsed };
  return {
    refused: Response.json(
      {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `Invalid Request: JSON-RPC batches were removed in protocol version ${BATCHES_REMOVED_IN}; send one message per request`,
        },
        id: null,
      },
      { status: 400 },
    ),
  };
}
