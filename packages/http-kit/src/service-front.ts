import type { Hono } from 'hono';
import { installErrorHandling } from './error-handling';
import { healthRoutes, type ReadinessReport } from './health';
import type { ServiceLifecycle } from './lifecycle';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import { requestContext } from './request-context';
import { securityHeaders } from './security-headers';

/**
 * The first steps of every dcg service app, in the order that matters: the metrics middleware
 * first, so that refused requests (401, 413, 429) are counted and timed too; the security
 * headers; the probes `/health` and `/ready` next, before any step that can wait (rate limits on
 * PostgreSQL, admission control) or log, so that they answer within milliseconds however busy the
 * app is (the two steps before them only stamp headers and count); then request ids and logs, and
 * problem details for every error.
 *
 * @example
 * installServiceFront(app, { metrics, logger, lifecycle, ready: async () => ({ ready: true }) });
 * app.use(rateLimit({ keys, config }));
 */
export function installServiceFront(
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its environment type
  app: Hono<any, any, any>,
  options: {
    metrics: ServiceMetrics;
    logger: Logger;
    ready: () => Promise<ReadinessReport> | ReadinessReport;
    lifecycle?: ServiceLifecycle | undefined;
  },
): void {
  app.use(options.metrics.middleware());
  app.use(securityHeaders());
  app.route('/', healthRoutes({ ready: options.ready, lifecycle: options.lifecycle }));
  app.use(requestContext({ logger: options.logger }));
  installErrorHandling(app, options.logger);
}
