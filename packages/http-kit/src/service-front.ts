import type { Hono, MiddlewareHandler } from 'hono';
import { type AdmissionControlOptions, admissionControl } from './admission';
import { installErrorHandling } from './error-handling';
import { healthRoutes, type ReadinessReport } from './health';
import type { ServiceLifecycle } from './lifecycle';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import { type RateLimitOptions, rateLimit } from './rate-limit';
import { requestContext } from './request-context';
import { securityHeaders } from './security-headers';

/** Options of {@link installServiceFront}. */
export interface ServiceFrontOptions {
  /** Counts and times every request, refused ones too (absent: no HTTP metrics). */
  metrics?: ServiceMetrics | undefined;
  logger: Logger;
  /** The answer of `/ready`. */
  ready: () => Promise<ReadinessReport> | ReadinessReport;
  /** Drained on stop: `/ready` answers 503. */
  lifecycle?: ServiceLifecycle | undefined;
  /** Cross-origin answers (e.g. `hono/cors`): before the waits, so that a preflight never queues. */
  cors?: MiddlewareHandler | undefined;
  /** Admission control (its metrics are `metrics`). */
  admission: Omit<AdmissionControlOptions, 'metrics'>;
  /** Per-client rate limits. */
  rateLimit: RateLimitOptions;
}

/**
 * The first steps of every dcg service app, in the order that matters: the metrics middleware
 * first, so that refused requests (401, 413, 429, 503) are counted and timed too; the security
 * headers; the probes `/health` and `/ready` next, before any step that can wait (rate limits on
 * PostgreSQL, admission control) or log, so that they answer within milliseconds however busy the
 * app is (the two steps before them only stamp headers and count); then request ids and logs,
 * problem details for every error, CORS, and last the two steps that can refuse or make a request
 * wait: admission control, then the rate limits.
 *
 * @example
 * installServiceFront(app, {
 *   metrics,
 *   logger,
 *   ready: async () => ({ ready: true }),
 *   admission: { config: config.admission },
 *   rateLimit: { keys, config: config.rateLimit },
 * });
 */
export function installServiceFront(
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app, whatever its environment type
  app: Hono<any, any, any>,
  options: ServiceFrontOptions,
): void {
  if (options.metrics) app.use(options.metrics.middleware());
  app.use(securityHeaders());
  app.route('/', healthRoutes({ ready: options.ready, lifecycle: options.lifecycle }));
  app.use(requestContext({ logger: options.logger }));
  installErrorHandling(app, options.logger);
  if (options.cors) app.use(options.cors);
  app.use(admissionControl({ ...options.admission, metrics: options.metrics }));
  app.use(rateLimit(options.rateLimit));
}
