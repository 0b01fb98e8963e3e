import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ServiceMetrics } from './metrics';
import { parsePrometheusText, requestsTotal } from './operations.testkit';
import { rateLimit } from './rate-limit';

const KEY = 'metrics-key-0123456789abcdef';
const keys = [{ key: KEY, role: 'reader' }];

function appWith(metrics: ServiceMetrics, config = { enabled: true, requireKey: true }) {
  const app = new Hono();
  app.use(metrics.middleware());
  app.use(
    rateLimit({
      keys,
      config: {
        enabled: true,
        anonymous: { requestsPerSecond: 0.001, burst: 3 },
        authenticated: { requestsPerSecond: 1000, burst: 1000 },
        failedAuth: { requestsPerSecond: 1, burst: 10 },
        trustForwardedFor: false,
        maxClients: 100,
      },
    }),
  );
  app.get('/items/:id', (c) => c.json({ id: c.req.param('id') }));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.onError((_, c) => c.text('failed', 500));
  app.route('/', metrics.routes({ config, keys }));
  return app;
}

async function scrape(app: Hono) {
  const response = await app.request('/metrics', { headers: { authorization: `Bearer ${KEY}` } });
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

describe('ServiceMetrics', () => {
  it('counts by route pattern and status, one series for every unmatched path, 429s under their route', async () => {
    const metrics = new ServiceMetrics({ service: 'test', processMetrics: false });
    const app = appWith(metrics);
    await app.request('/items/1');
    await app.request('/items/2');
    await app.request('/boom');
    await app.request('/items/3'); // the anonymous burst (3) is used up: 429
    for (let i = 0; i < 20; i++) {
      await app.request(`/random-${i}`, { headers: { authorization: `Bearer ${KEY}` } });
    }
    const { samples } = await scrape(app);
    const count = (route: string, status: string) => requestsTotal(samples, { route, status });
    expect(count('/items/:id', '200')).toBe(2);
    expect(count('/boom', '500')).toBe(1);
    expect(count('/items/:id', '429')).toBe(1);
    expect(count('(unmatched)', '404')).toBe(20);
    expect(samples.filter((s) => s.labels.route?.startsWith('/random'))).toEqual([]);
    expect(samples.every((s) => s.labels.service === 'test')).toBe(true);
  });

  it('reads collected gauges at scrape time', async () => {
    const metrics = new ServiceMetrics({ service: 'test', processMetrics: false });
    let depth = 2;
    metrics.gauge('queue_depth', 'Waiting jobs', [], () => depth);
    metrics.gauge('store_up', 'Store answers', ['storage'], async () => [
      { labels: { storage: 'sqlite' }, value: 1 },
    ]);
    const app = appWith(metrics);
    expect((await scrape(app)).samples).toContainEqual({
      name: 'queue_depth',
      labels: { service: 'test' },
      value: 2,
    });
    depth = 7;
    const { samples } = await scrape(app);
    expect(samples.find((s) => s.name === 'queue_depth')?.value).toBe(7);
    expect(samples.find((s) => s.name === 'store_up')?.labels.storage).toBe('sqlite');
  });

  it('asks for a key unless requireKey is off, and serves nothing when disabled', async () => {
    const locked = appWith(new ServiceMetrics({ service: 'a', processMetrics: false }));
    expect((await locked.request('/metrics')).status).toBe(401);
    const open = appWith(new ServiceMetrics({ service: 'b', processMetrics: false }), {
      enabled: true,
      requireKey: false,
    });
    const response = await open.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const off = appWith(new ServiceMetrics({ service: 'c', processMetrics: false }), {
      enabled: false,
      requireKey: false,
    });
    expect(
      (await off.request('/metrics', { headers: { authorization: `Bearer ${KEY}` } })).status,
    ).toBe(404);
  });
});
