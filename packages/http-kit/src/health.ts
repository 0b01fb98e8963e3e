import { Hono } from 'hono';
import type { ServiceLifecycle } from './lifecycle';

/** What a readiness check reports: `ready` decides the status code, the rest is shown as is. */
export interface ReadinessReport {
  ready: boolean;
  [detail: string]: unknown;
}

/**
 * `GET /health` (the process answers) and `GET /ready` (its dependencies answer: 200 or 503).
 * With a `lifecycle`, `/ready` answers 503 as soon as the service starts to stop, so that a load
 * balancer sends no new work while in-flight requests finish.
 *
 * @example
 * app.route('/', healthRoutes({ ready: async () => ({ ready: await db.ping() }), lifecycle }));
 */
export function healthRoutes(options: {
  ready: () => Promise<ReadinessReport> | ReadinessReport;
  lifecycle?: ServiceLifecycle | undefined;
}): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    if (options.lifecycle?.draining) {
      return c.json({ status: 'stopping', ready: false }, 503, { 'Retry-After': '5' });
    }
    try {
      const report = await options.ready();
      return c.json(
        { status: report.ready ? 'ready' : 'not ready', ...report },
        report.ready ? 200 : 503,
      );
    } catch (error) {
      return c.json({ status: 'not ready', ready: false, error: (error as Error).message }, 503);
    }
  });
  return app;
}
