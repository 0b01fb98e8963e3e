import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ServiceMetrics } from './metrics';
import { parsePrometheusText, requestsTotal } from './operations.testkit';
import { rateLimit } from './rate-limit';
import { startHttpServer } from './server';

const KEY = 'metrics-key-0123456789abcdef';
const keys = [{ key: KEY, role: 'reader' }];

function appWith(
  metrics: ServiceMetrics,
  config = { enabled: true, requireKey: true },
  development?: boolean,
) {
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
  app.route(
    '/',
    metrics.routes({ config, keys, ...(development === undefined ? {} : { development }) }),
  );
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

  it('labels dcg_build_info with version, commit and the Node.js version', async () => {
    const metrics = new ServiceMetrics({ service: 'test', processMetrics: false });
    metrics.buildInfo({ version: '1.2.3', commit: 'abc1234' });
    const { samples, types } = await scrape(appWith(metrics));
    expect(types.get('dcg_build_info')).toBe('gauge');
    expect(samples).toContainEqual({
      name: 'dcg_build_info',
      labels: {
        service: 'test',
        version: '1.2.3',
        commit: 'abc1234',
        node_version: process.version,
      },
      value: 1,
    });
    const unknown = new ServiceMetrics({ service: 'test', processMetrics: false });
    unknown.buildInfo({ version: '1.2.3' });
    const info = (await scrape(appWith(unknown))).samples.find((s) => s.name === 'dcg_build_info');
    expect(info?.labels.commit).toBe(process.env.DCG_COMMIT || 'unknown');
  });

  it('outside production, serves a loopback scrape without a key, unless a proxy forwarded it', async () => {
    // Only the metrics routes: the rate limit of appWith would answer 429 first.
    const only = (service: string, development: boolean) =>
      new Hono().route(
        '/',
        new ServiceMetrics({ service, processMetrics: false }).routes({
          config: { enabled: true, requireKey: true },
          keys,
          development,
        }),
      );
    const development = only('dev', true);
    const production = only('prod', false);
    // app.request() has no socket: never local, so the key is asked even in development.
    expect((await development.request('/metrics')).status).toBe(401);
    const dev = await startHttpServer(development, { port: 0 });
    const prod = await startHttpServer(production, { port: 0 });
    try {
      expect((await fetch(`${dev.url}/metrics`)).status).toBe(200);
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
        const proxied = await fetch(`${dev.url}/metrics`, { headers: { [header]: '203.0.113.9' } });
        expect(proxied.status, header).toBe(401);
      }
      expect((await fetch(`${prod.url}/metrics`)).status).toBe(401);
      const keyed = await fetch(`${prod.url}/metrics`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(keyed.status).toBe(200);
    } finally {
      await dev.close();
      await prod.close();
    }
  });
});
