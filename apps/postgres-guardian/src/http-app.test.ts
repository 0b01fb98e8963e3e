import { createGuardian } from '@dcg/guardian-sdk';
import { ServiceMetrics } from '@dcg/http-kit';
import { parsePrometheusText, requestsTotal } from '@dcg/http-kit/testkit';
import { describe, expect, it } from 'vitest';
import { buildGuardianHttpApp } from './http-app';

const METRICS_KEY = 'guardian-metrics-key-0123456789';

function guardianApp(
  options: { requireKey?: boolean; enabled?: boolean; ready?: () => unknown } = {},
) {
  const metrics = new ServiceMetrics({ service: 'postgres-guardian', processMetrics: false });
  const guardian = createGuardian({
    checks: [],
    governance: { baseUrl: 'http://127.0.0.1:1' },
    adapter: { maxBodyBytes: 1024 },
    ...(options.ready ? { ready: options.ready } : {}),
  });
  const app = buildGuardianHttpApp({
    guardian,
    metrics,
    metricsConfig: { enabled: options.enabled ?? true, requireKey: options.requireKey ?? true },
    metricsKeys: [{ name: 'metrics', role: 'metrics', key: METRICS_KEY }],
  });
  return { app, metrics, guardian };
}

describe('postgres-guardian HTTP app', () => {
  it('serves /metrics in the Prometheus text format behind METRICS_KEY, counting adapter requests by route', async () => {
    const { app } = guardianApp();
    const tooLarge = await app.request('/v1/provision', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(2048) }),
    });
    expect(tooLarge.status).toBe(413);
    await app.request('/v1/provision/no-such-token/status');
    await app.request('/no/such/path/12345');

    expect((await app.request('/metrics')).status).toBe(401);
    const response = await app.request('/metrics', {
      headers: { authorization: `Bearer ${METRICS_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parsePrometheusText(await response.text());
    expect(types.get('http_requests_total')).toBe('counter');
    const requests = (method: string, route: string, status: string) =>
      requestsTotal(samples, { method, route, status });
    expect(requests('POST', '/v1/provision', '413')).toBe(1);
    expect(
      samples.filter(
        (s) => s.name === 'http_requests_total' && s.labels.route === '/v1/provision/:token/status',
      ),
    ).toHaveLength(1);
    expect(requests('GET', '(unmatched)', '404')).toBe(1);
    expect(samples.some((s) => s.labels.route?.includes('no-such-token'))).toBe(false);
    expect(samples.some((s) => s.labels.route?.includes('12345'))).toBe(false);
  });

  it('serves /metrics without a key when METRICS_REQUIRE_KEY=0, and none when METRICS_ENABLED=0', async () => {
    expect((await guardianApp({ requireKey: false }).app.request('/metrics')).status).toBe(200);
    expect((await guardianApp({ enabled: false }).app.request('/metrics')).status).toBe(404);
  });

  it('sends the security headers on the adapter answers', async () => {
    const { app } = guardianApp();
    const response = await app.request('/v1/provision/no-such-token/status');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('answers /health and /ready without a key; /ready is 503 when PostgreSQL does not answer or once stopping', async () => {
    const { app, guardian } = guardianApp();
    const health = await app.request('/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    const ready = await app.request('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', ready: true, contracts: 0 });
    await guardian.stop();
    expect((await app.request('/ready')).status).toBe(503);

    const down = guardianApp({
      ready: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')),
    });
    const notReady = await down.app.request('/ready');
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'not ready',
      ready: false,
      contracts: 0,
      error: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    expect((await down.app.request('/health')).status).toBe(200);
    await down.guardian.stop();
  });
});
