import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { openApiProblem as problem, type SecurityRequirement } from './openapi-route-parts';

export type { SecurityRequirement };

/** What {@link serveOpenApiDocument} writes at the top of the document. */
export interface OpenApiDocumentOptions {
  /** Where the document is served (default `/openapi.json`). */
  path?: string;
  info: {
    title: string;
    version: string;
    description?: string;
    license?: { name: string; identifier?: string; url?: string };
  };
  /**
   * Default `[{ url: '/' }]`: relative to the document, that is the origin that serves it, which
   * stays right behind any proxy that does not rewrite paths.
   */
  servers?: Array<{ url: string; description?: string }>;
  /**
   * Security of the operations that do not state their own: `[]` (public) for open reads, or
   * `[{ bearerAuth: [] }]` when the app is configured to ask a key for them.
   */
  defaultSecurity: SecurityRequirement[];
  /**
   * Answers that every operation can give whatever it declares (default: `429` from the rate
   * limits, which run before every route but `/health` and `/ready`); added where an operation
   * does not declare that status.
   */
  commonResponses?: Record<string, { description: string }>;
  /** Describe `/health`, `/ready` and (when served) `/metrics`, which `healthRoutes` and `ServiceMetrics` serve. */
  operational: {
    /** What `/ready` checks, shown in its description. */
    ready: string;
    /** `/metrics` is served; `requireKey` decides its security. */
    metrics?: { requireKey: boolean; securityScheme: string } | undefined;
  };
}

const UNLIMITED_PATHS = new Set(['/health', '/ready']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function registerOperationalPaths(
  // biome-ignore lint/suspicious/noExplicitAny: any app environment
  app: OpenAPIHono<any, any, any>,
  operational: OpenApiDocumentOptions['operational'],
): void {
  const readyBody = {
    'application/json': {
      schema: {
        type: 'object' as const,
        properties: { status: { type: 'string' as const }, ready: { type: 'boolean' as const } },
        required: ['status', 'ready'],
        additionalProperties: true,
      },
    },
  };
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    tags: ['operations'],
    summary: 'Liveness: the process answers',
    security: [],
    responses: {
      200: {
        description: 'The process is up',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { status: { type: 'string', enum: ['ok'] } },
              required: ['status'],
            },
          },
        },
      },
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    tags: ['operations'],
    summary: 'Readiness: 200 when the service can take work, 503 otherwise',
    description: `${operational.ready} Answers 503 (with \`Retry-After\`) as soon as the service starts to stop.`,
    security: [],
    responses: {
      200: { description: 'Ready', content: readyBody },
      503: { description: 'Not ready, or stopping', content: readyBody },
    },
  });
  if (operational.metrics) {
    app.openAPIRegistry.registerPath({
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      tags: ['operations'],
      summary: 'Prometheus metrics (text exposition format 0.0.4)',
      description:
        'Requests by method, route pattern and status with latency histograms, in-flight requests, the domain timings and queue depths of the app, store health and the process metrics.',
      security: operational.metrics.requireKey
        ? [{ [operational.metrics.securityScheme]: [] }]
        : [],
      responses: {
        200: {
          description: 'The metrics',
          content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
        },
        ...(operational.metrics.requireKey ? { 401: problem('No valid API key') } : {}),
        429: problem('Too many requests from this client'),
      },
    });
  }
}

/**
 * Serves the app's OpenAPI 3.1 document at `/openapi.json`, generated once on the first request
 * (every route is registered by then), with `servers` set, the operational endpoints described and
 * every operation that states no `security` given `defaultSecurity` (so that public operations say
 * `security: []` and none is left ambiguous). Each operation should carry its own `operationId`:
 * the app's `redocly lint` test fails otherwise. Returns the document (built on first use), for
 * the reference page of `apiReference`.
 *
 * @example
 * serveOpenApiDocument(app, {
 *   info: { title: 'dcg kg-api', version: '0.1.0' },
 *   defaultSecurity: [],
 *   operational: { ready: 'The knowledge base is loaded and its folder writable.' },
 * });
 */
export function serveOpenApiDocument<E extends Env>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema and base path
  app: OpenAPIHono<E, any, any>,
  options: OpenApiDocumentOptions,
): () => unknown {
  registerOperationalPaths(app, options.operational);
  let built: unknown;
  let document: string | undefined;
  const get = () => {
    built ??= buildDocument(app, options);
    return built;
  };
  app.get(options.path ?? '/openapi.json', (c) => {
    document ??= JSON.stringify(get());
    return c.body(document, 200, { 'content-type': 'application/json; charset=UTF-8' });
  });
  return get;
}

function buildDocument(
  // biome-ignore lint/suspicious/noExplicitAny: any app environment
  app: OpenAPIHono<any, any, any>,
  options: OpenApiDocumentOptions,
): unknown {
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: options.info,
    servers: options.servers ?? [{ url: '/', description: 'The server that serves this document' }],
  });
  const common = options.commonResponses ?? {
    429: {
      description: 'Too many requests from this client (see `Retry-After`)',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, { security?: unknown } | undefined>)[method];
      if (!operation) continue;
      if (operation.security === undefined) operation.security = options.defaultSecurity;
      const withResponses = operation as { responses?: Record<string, unknown> };
      withResponses.responses ??= {};
      const responses = withResponses.responses;
      // Probes are never rate-limited (see `rateLimit`): they can answer no 4xx at all.
      if (UNLIMITED_PATHS.has(path)) continue;
      for (const [status, response] of Object.entries(common)) responses[status] ??= response;
    }
  }
  return document;
}
