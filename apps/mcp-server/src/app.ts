import {
  type AdmissionConfig,
  type ApiKey,
  installServiceFront,
  type Logger,
  type MetricsConfig,
  ProblemError,
  problemResponse,
  type RateLimitConfig,
  type ServiceLifecycle,
  type ServiceMetrics,
  type SharedLimits,
  strictUtf8,
} from '@dcg/http-kit';
import {
  type AuthInfo,
  hostHeaderValidationResponse,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { type Context, Hono } from 'hono';
import type { McpEnv } from './app-env';
import type { CorsPolicy } from './cors';
import { invalidParams } from './json-rpc-params';
import { refuseRemovedBatch } from './removed-batches';

/**
 * Everything the mcp-server Hono app is built from.
 *
 * @example
 * const deps: McpAppDeps = { handler, resource, cors, logger, maxRequestBytes: 1_048_576 };
 */
export interface McpAppDeps {
  /** The SDK's MCP handler (2026-07-28 and the 2025 legacy lane). */
  handler: McpHttpHandler;
  /** The MCP endpoint URL, the resource of RFC 8707/9728 (e.g. `https://mcp.example.com/mcp`). */
  resource: URL;
  cors: CorsPolicy;
  /**
   * This server's own origins (its public URL's, and on loopback the same port under `localhost`,
   * `127.0.0.1` and `[::1]`): a page of this server may always call it.
   */
  selfOrigins: readonly string[];
  /** When set (a loopback server), `/mcp` answers only requests whose Host is one of these. */
  allowedHosts?: readonly string[] | undefined;
  logger: Logger;
  maxRequestBytes: number;
  /** OAuth's access token check of /mcp: the caller, or the 401/403 to answer (absent: none). */
  gate?: (request: Request) => Promise<AuthInfo | Response>;
  /** Sub-apps mounted at the root, after /mcp (the OAuth routes of `createOAuth`). */
  routes?: Hono<McpEnv>[];
  /** Prometheus metrics of this instance, served at `/metrics` as `metricsConfig` says. */
  metrics?: { metrics: ServiceMetrics; config: MetricsConfig; keys: readonly ApiKey[] };
  /** Admission control (default: the defaults of `AdmissionConfigSchema`). */
  admission?: AdmissionConfig;
  /** Per-client rate limits: a valid access token counts per user, anything else per address. */
  rateLimit?: RateLimitConfig;
  /** Rate limit counters shared by the instances on PostgreSQL (absent: this instance's memory). */
  sharedLimits?: SharedLimits | undefined;
  /** Drained on stop: `/ready` answers 503 while in-flight calls finish. */
  lifecycle?: ServiceLifecycle;
}

/**
 * Builds the mcp-server app: `/mcp` (Streamable HTTP, behind the bearer gate, refusing origins
 * not configured with 403), health, metrics, and the sub-apps given (OAuth's routes).
 *
 * @example
 * const app = buildMcpApp(deps);
 */
export function buildMcpApp(deps: McpAppDeps): Hono<McpEnv> {
  const app = new Hono<McpEnv>();
  const mcpPath = deps.resource.pathname;
  // The bearer gate's answer for a request to /mcp, asked once (by the rate limit or the route).
  const gateOf = async (c: Context<McpEnv>): Promise<AuthInfo | Response | undefined> => {
    if (!deps.gate) return undefined;
    let answer = c.get('mcpAuth');
    if (!answer) {
      answer = await deps.gate(c.req.raw);
      c.set('mcpAuth', answer);
    }
    return answer;
  };
  // The login and consent pages set their own CSP, which the security headers keep. The probes
  // answer before the token check, the rate limits and admission control can make a request wait.
  installServiceFront(app, {
    metrics: deps.metrics?.metrics,
    logger: deps.logger,
    lifecycle: deps.lifecycle,
    ready: () => ({ ready: true }),
    admission: {
      config: deps.admission,
      // A request answered over SSE (the 2025 lane, or a call that sends progress) is worked on
      // until its stream ends; a subscription's stream lives for hours and keeps no turn.
      holdsStream: (c) =>
        c.req.method === 'POST' && (c as Context<McpEnv>).get('jsonRpcMethod') !== LISTEN_METHOD,
    },
    rateLimit: {
      keys: deps.metrics?.keys ?? [],
      config: deps.rateLimit,
      shared: deps.sharedLimits,
      // A valid access token counts per user; forged ones per address (and as failed auth).
      principal: async (c) => {
        if (c.req.path !== mcpPath) return undefined;
        const answer = await gateOf(c as Context<McpEnv>);
        if (!answer || !('token' in answer)) return undefined;
        const subject = (answer.extra as { subject?: unknown } | undefined)?.subject;
        return typeof subject === 'string' ? subject : `client:${answer.clientId}`;
      },
    },
  });

  const originAllowed = (origin: string) =>
    deps.selfOrigins.includes(origin) || deps.cors.allows(origin);
  app.options(mcpPath, (c) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !originAllowed(origin)) return forbiddenOrigin(origin);
    return new Response(null, {
      status: 204,
      headers: deps.cors.preflightFor(origin, 'GET, POST, DELETE, OPTIONS'),
    });
  });
  // Methods listed rather than `app.all`: the metrics count a handler registered for ALL as a
  // middleware, so /mcp would show as `(unmatched)`; the SDK answers 405 for the ones it refuses.
  app.on(['GET', 'POST', 'DELETE', 'PUT', 'PATCH'], mcpPath, async (c) => {
    const origin = c.req.header('origin');
    // DNS rebinding protection: a browser page of an origin not configured never reaches /mcp,
    // nor does a request for another host name when the server listens on loopback.
    if (origin !== undefined && !originAllowed(origin)) return forbiddenOrigin(origin);
    if (deps.allowedHosts) {
      const refused = hostHeaderValidationResponse(c.req.raw, [...deps.allowedHosts]);
      if (refused) return refused;
    }
    const tooLarge = () =>
      withCors(
        problemResponse({
          status: 413,
          title: 'Payload Too Large',
          detail: `The request body exceeds ${deps.maxRequestBytes} bytes`,
        }),
        deps.cors.headersFor(origin),
      );
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > deps.maxRequestBytes) return tooLarge();
    let authInfo: AuthInfo | undefined;
    if (deps.gate) {
      const gate = (await gateOf(c)) as AuthInfo | Response;
      // Not `instanceof Response`: @hono/node-server replaces the global Response class.
      if (!('token' in gate)) return withCors(gate, deps.cors.headersFor(origin));
      authInfo = gate;
    }
    let request = c.req.raw;
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      // Read here, not by the SDK: text that is not UTF-8 is refused with its offset (the SDK
      // would read U+FFFD into it), and params of the wrong shape get -32602.
      const bytes = await readCapped(c.req.raw, deps.maxRequestBytes);
      if (bytes === undefined) return tooLarge();
      let text: string;
      try {
        text = strictUtf8(bytes, 'body');
      } catch (error) {
        if (!ProblemError.isInstance(error)) throw error;
        return withCors(problemResponse(error.problem), deps.cors.headersFor(origin));
      }
      try {
        parsedBody = JSON.parse(text);
      } catch {
        // Not JSON: the SDK answers the JSON-RPC parse error.
      }
      const method = (parsedBody as { method?: unknown } | null | undefined)?.method;
      if (typeof method === 'string') c.set('jsonRpcMethod', method);
      const batchRefused = refuseRemovedBatch(parsedBody, c.req.raw.headers);
      if (batchRefused) return withCors(batchRefused, deps.cors.headersFor(origin));
      const refused = invalidParams(parsedBody);
      if (refused) {
        return withCors(
          new Response(JSON.stringify(refused), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
          deps.cors.headersFor(origin),
        );
      }
      request = new Request(c.req.raw.url, {
        method: 'POST',
        headers: c.req.raw.headers,
        body: text,
        signal: c.req.raw.signal,
      });
    }
    const response = await deps.handler.fetch(request, {
      ...(authInfo ? { authInfo } : {}),
      ...(parsedBody !== undefined ? { parsedBody } : {}),
    });
    return withCors(response, deps.cors.headersFor(origin));
  });

  if (deps.metrics)
    app.route(
      '/',
      deps.metrics.metrics.routes({ config: deps.metrics.config, keys: deps.metrics.keys }),
    );
  for (const routes of deps.routes ?? []) app.route('/', routes);
  return app;
}

/** The JSON-RPC method whose answer is a stream that lasts as long as the subscription. */
const LISTEN_METHOD = 'subscriptions/listen';

/** The body's bytes, or undefined once more than `max` arrived (chunked bodies declare no size). */
async function readCapped(request: Request, max: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function forbiddenOrigin(origin: string): Response {
  return problemResponse({
    status: 403,
    title: 'Forbidden',
    detail: `Origin ${origin} is not allowed to call this server (cors.origin)`,
  });
}

function withCors(response: Response, headers: Record<string, string>): Response {
  if (Object.keys(headers).length === 0) return response;
  const out = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
  return out;
}
