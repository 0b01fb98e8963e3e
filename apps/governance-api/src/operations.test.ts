import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import {
  parsePrometheusText,
  redoclyLint,
  requestsTotal,
  unexpectedProblems,
} from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
type Operation = { operationId?: string; security?: unknown[] };

describe('governance-api operations: OpenAPI document and /metrics', () => {
  let api: RunningGovernanceApi;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-ops-'));
    api = await startGovernanceApi({
      config: testConfig,
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves an OpenAPI document that passes redocly lint (no error; no warning but the probes having no 4xx)', async () => {
    const document = await (await fetch(`${api.url}/openapi.json`)).json();
    const report = await redoclyLint(document);
    expect(unexpectedProblems(report)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('names every operation, states its security, documents /health, /ready, /metrics and sets servers', async () => {
    const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
      servers?: unknown[];
      paths: Record<string, Record<string, Operation>>;
    };
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ key: `${m} ${path}`, ...item[m] })),
    );
    for (const operation of operations) {
      expect(operation.operationId, operation.key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.security, operation.key).toBeInstanceOf(Array);
    }
    const security = (key: string) => operations.find((o) => o.key === key)?.security;
    expect(security('get /health')).toEqual([]);
    expect(security('get /ready')).toEqual([]);
    expect(security('get /metrics')).toEqual([{ bearerAuth: [] }]);
    expect(security('get /v1/marketplace/instances')).toEqual([]);
    expect(security('post /v1/provisioning/deploy')).toEqual([{ bearerAuth: [] }]);
  });

  it('serves /metrics in the Prometheus text format behind a key: requests per route and status, latency histograms, store health', async () => {
    await fetch(`${api.url}/v1/marketplace/instances`);
    await fetch(`${api.url}/v1/marketplace/instances/urn:dmb:nowhere`);
    await fetch(`${api.url}/no/such/path/12345`);
    await request(`${api.url}/v1/computational-governance/policies`, {
      key: 'not-a-valid-key-at-all',
    });

    // Through a proxy (a forwarding header), a key is asked; a scrape from this host outside
    // production (the demo) needs none.
    const anonymous = await fetch(`${api.url}/metrics`, {
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await fetch(`${api.url}/metrics`)).status).toBe(200);

    const response = await fetch(`${api.url}/metrics`, {
      headers: { authorization: `Bearer ${KEYS.reader}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parsePrometheusText(await response.text());
    expect(types.get('http_requests_total')).toBe('counter');
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const requests = (route: string, status: string) =>
      requestsTotal(samples, { route, status, method: 'GET' });
    expect(requests('/v1/marketplace/instances', '200')).toBe(1);
    expect(requests('/v1/marketplace/instances/:systemId', '404')).toBe(1);
    // Unknown paths share one series: clients cannot mint new ones.
    expect(requests('(unmatched)', '404')).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => s.labels.route?.includes('12345'))).toBe(false);
    // A refused key still counts, under the route it was going to.
    expect(requests('/v1/computational-governance/policies', '401')).toBe(1);
    const buckets = samples.filter(
      (s) =>
        s.name === 'http_request_duration_seconds_bucket' &&
        s.labels.route === '/v1/marketplace/instances',
    );
    expect(buckets.map((b) => b.labels.le)).toContain('+Inf');
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);
    expect(samples).toContainEqual({
      name: 'dcg_store_up',
      labels: { service: 'governance-api', storage: 'sqlite' },
      value: 1,
    });
    expect(samples).toContainEqual({
      name: 'governance_plans_running',
      labels: { service: 'governance-api' },
      value: 0,
    });
    expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);
    expect(samples.some((s) => s.name === 'http_requests_in_flight')).toBe(true);
  });
});
