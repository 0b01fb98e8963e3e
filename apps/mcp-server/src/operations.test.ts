import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@dcg/http-kit';
import { parsePrometheusText, requestsTotal } from '@dcg/http-kit/testkit';
import { runToExit } from '@dcg/testing-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';

const METRICS_KEY = 'mcp-metrics-key-0123456789';
const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('mcp-server operations: /metrics, security headers, LOG_LEVEL', () => {
  let server: InProcessMcpServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-ops-'));
    server = await inProcessMcpServer({
      dataDir: dir,
      config: { oauth: { enabled: false }, metricsKeys: [{ name: 'prom', key: METRICS_KEY }] },
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves /metrics in the Prometheus text format behind a metrics key, counting refused requests by route', async () => {
    const refused = await server.app.request('/mcp', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(refused.status).toBe(403);
    await server.app.request('/no/such/path/12345');

    const anonymous = await server.app.request('/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const wrong = await server.app.request('/metrics', {
      headers: { authorization: 'Bearer not-the-metrics-key-at-all' },
    });
    expect(wrong.status).toBe(401);

    const response = await server.app.request('/metrics', {
      headers: { authorization: `Bearer ${METRICS_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parsePrometheusText(await response.text());
    expect(types.get('http_requests_total')).toBe('counter');
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const requests = (method: string, route: string, status: string) =>
      requestsTotal(samples, { method, route, status });
    expect(requests('POST', '/mcp', '403')).toBe(1);
    expect(requests('GET', '(unmatched)', '404')).toBe(1);
    expect(samples.some((s) => s.labels.route?.includes('12345'))).toBe(false);
    expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);
  });

  it('sends the security headers on its answers', async () => {
    const health = await server.app.request('/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('x-frame-options')).toBe('DENY');
    expect(health.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('serves no /metrics when metrics.enabled is off', async () => {
    const off = await inProcessMcpServer({
      dataDir: dir,
      config: { oauth: { enabled: false }, metrics: { enabled: false } },
      logger: createLogger('test', { level: 'silent' }),
    });
    try {
      expect((await off.app.request('/metrics')).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses LOG_LEVEL=verbose at start-up with one clear line and exit code 1', async () => {
    const { code, output: out } = await runToExit({
      appDir,
      env: { LOG_LEVEL: 'verbose', DCG_DATA_DIR: dir },
    });
    expect(code).toBe(1);
    expect(out).toContain(
      'mcp-server: LOG_LEVEL must be one of debug, info, warn, error, silent; not "verbose"',
    );
    expect(out).not.toMatch(/"msg":"listening"/);
  }, 60_000);
});
