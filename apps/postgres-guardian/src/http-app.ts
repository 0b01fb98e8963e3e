import type { GuardianAdapter } from '@dcg/guardian-sdk';
import {
  type ApiKey,
  type MetricsConfig,
  type ServiceMetrics,
  securityHeaders,
} from '@dcg/http-kit';
import { Hono } from 'hono';

/**
 * The guardian's HTTP app: the SDK's tech adapter behind the security headers, counted and timed
 * by route in `metrics`, and `GET /metrics` (Prometheus) behind `metricsKeys` unless
 * `metricsConfig.requireKey` is off.
 *
 * @example
 * const app = buildGuardianHttpApp({ adapter, metrics, metricsConfig, metricsKeys: [] });
 * serve({ fetch: app.fetch, port: 8093 });
 */
export function buildGuardianHttpApp(deps: {
  adapter: GuardianAdapter;
  metrics: ServiceMetrics;
  metricsConfig: MetricsConfig;
  metricsKeys: readonly ApiKey[];
}): Hono {
  const app = new Hono();
  // First, so that refused requests (413, 401 on /metrics) are counted and timed too.
  app.use(deps.metrics.middleware());
  app.use(securityHeaders());
  app.route('/', deps.metrics.routes({ config: deps.metricsConfig, keys: deps.metricsKeys }));
  app.route('/', deps.adapter.app);
  return app;
}
