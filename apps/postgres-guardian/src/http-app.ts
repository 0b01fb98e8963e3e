import {
  type ApiKey,
  type MetricsConfig,
  type ServiceMetrics,
  securityHeaders,
} from '@dcg/http-kit';
import { Hono } from 'hono';

/**
 * The guardian's HTTP app: the SDK guardian's app (tech adapter, `/health`, `/ready`) behind the
 * security headers, counted and timed by route in `metrics`, and `GET /metrics` (Prometheus)
 * behind `metricsKeys` unless `metricsConfig.requireKey` is off.
 *
 * @example
 * const app = buildGuardianHttpApp({ guardian, metrics, metricsConfig, metricsKeys: [] });
 * serve({ fetch: app.fetch, port: 8093 });
 */
export function buildGuardianHttpApp(deps: {
  guardian: { app: Hono };
  metrics: ServiceMetrics;
  metricsConfig: MetricsConfig;
  metricsKeys: readonly ApiKey[];
}): Hono {
  const app = new Hono();
  // First, so that refused requests (413, 401 on /metrics) are counted and timed too.
  app.use(deps.metrics.middleware());
  app.use(securityHeaders());
  app.route('/', deps.metrics.routes({ config: deps.metricsConfig, keys: deps.metricsKeys }));
  app.route('/', deps.guardian.app);
  return app;
}
