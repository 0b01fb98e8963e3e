import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContextVariables } from '@dcg/http-kit';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The Hono environment of mcp-server: it runs on @hono/node-server (oidc-provider needs Node's req/res). */
export type McpEnv = {
  Bindings: { incoming: IncomingMessage; outgoing: ServerResponse };
  /**
   * `mcpAuth`: the bearer gate's answer for /mcp, once the rate limit asked it (checked once);
   * `jsonRpcMethod`: the method of a JSON-RPC request posted to /mcp.
   */
  Variables: RequestContextVariables & { mcpAuth?: AuthInfo | Response; jsonRpcMethod?: string };
};
