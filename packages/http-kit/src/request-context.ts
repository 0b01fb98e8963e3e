import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from './logger';

/** Variables that `requestContext` puts on the Hono context. */
export interface RequestContextVariables {
  requestId: string;
  logger: Logger;
}

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new one), echoes it in
 * the response, and writes one access-log line per request.
 *
 * @example
 * app.use(requestContext({ logger: createLogger('governance-api') }));
 */
export function requestContext(options: { logger: Logger }): MiddlewareHandler<{
  Variables: RequestContextVariables;
}> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const logger = options.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    // Set before the handler runs so it is part of the response as built (no copy afterwards).
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    // A handler that returns its own Response bypasses the prepared headers.
    if (!c.res.headers.has('X-Request-Id')) c.header('X-Request-Id', requestId);
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
