import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContextVariables } from '@dcg/http-kit';

/** The Hono environment of mcp-server: it runs on @hono/node-server (oidc-provider needs Node's req/res). */
export type McpEnv = {
  Bindings: { incoming: IncomingMessage; outgoing: ServerResponse };
  Variables: RequestContextVariables;
};
