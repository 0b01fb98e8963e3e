import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { parsePrometheusText, redoclyLint, unexpectedProblems } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expensiveQuery, labelledConcepts } from './__fixtures__/query-load';
import { SKOS, startTestServer } from './__fixtures__/test-servers';
import {
  startVocabKgApi,
  type VocabKgApi,
  WRITER_KEY as WRITER,
} from './__fixtures__/vocab-kg-api';
import { type RunningKgApi, startKgApi } from './server';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
type Operation = {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
};
const logger = createLogger('kg-api-test', { level: 'silent' });
const source = {
  id: 'vocab',
  name: 'Vocabulary',
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
};

async function operations(url: string) {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
    servers?: unknown[];
    paths: Record<string, Record<string, Operation>>;
  };
  const list = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: `${m} ${path}`, ...item[m] })),
  );
  return { document, list, security: (key: string) => list.find((o) => o.key === key)?.security };
}

describe('kg-api operations: OpenAPI document and /metrics', () => {
  let kg: VocabKgApi;
  let api: RunningKgApi;

  beforeAll(async () => {
    kg = await startVocabKgApi({ prefix: 'kg-ops-', config: { metrics: { requireKey: false } } });
    api = kg.api;
  });
  afterAll(() => kg?.close());

  it('serves an OpenAPI document that passes redocly lint (no error; no warning but the probes having no 4xx)', async () => {
    const document = await (await fetch(`${api.url}/openapi.json`)).json();
    const report = await redoclyLint(document);
    expect(unexpectedProblems(report)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('names every operation, marks open reads public, documents /health, /ready, /metrics and sets servers', async () => {
    const { document, list, security } = await operations(api.url);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    for (const operation of list) {
      expect(operation.operationId, operation.key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.security, operation.key).toBeInstanceOf(Array);
    }
    expect(security('get /health')).toEqual([]);
    expect(security('get /ready')).toEqual([]);
    expect(security('get /metrics')).toEqual([]);
    expect(security('get /v1/search/query')).toEqual([]);
    expect(security('post /v1/graph/sparql')).toEqual([]);
    expect(security('put /v1/sources/{sourceId}/graph')).toEqual([{ bearerAuth: [] }]);
  });

  it('documents format on both SPARQL endpoints, and the Service Description only on the internal one', async () => {
    const { list } = await operations(api.url);
    const parameters = (key: string) =>
      Object.fromEntries(
        (list.find((o) => o.key === key)?.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, p.required ?? false]),
      );
    expect(parameters('get /v1/graph/sparql')).toEqual({ query: false, format: false });
    expect(parameters('post /v1/graph/sparql')).toEqual({ format: false });
    expect(parameters('get /passthrough/{sourceId}/v1/graph/sparql')).toEqual({
      query: true,
      format: false,
    });
    expect(parameters('post /passthrough/{sourceId}/v1/graph/sparql')).toEqual({ format: false });
  });

  it('serves /metrics to a scraper: requests per route and status, latency histograms, SPARQL timings, storage health', async () => {
    const put = await kg.upload(
      '<https://ex.org/a> <http://www.w3.org/2004/02/skos/core#prefLabel> "Water" .',
    );
    expect(put.status).toBe(200);
    await fetch(`${api.url}/v1/search/query?term=water`);
    const query = 'SELECT ?s WHERE { ?s ?p ?o }';
    const sparql = await fetch(`${api.url}/v1/graph/sparql?query=${encodeURIComponent(query)}`);
    expect(sparql.status).toBe(200);

    const response = await fetch(`${api.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parsePrometheusText(await response.text());
    const value = (name: string, labels: Record<string, string>) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;
    expect(
      value('http_requests_total', { route: '/v1/search/query', method: 'GET', status: '200' }),
    ).toBe(1);
    expect(
      value('http_requests_total', {
        route: '/v1/sources/:sourceId/graph',
        method: 'PUT',
        status: '200',
      }),
    ).toBe(1);
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    expect(
      value('http_request_duration_seconds_count', { route: '/v1/graph/sparql', method: 'GET' }),
    ).toBe(1);
    expect(types.get('kg_sparql_evaluation_duration_seconds')).toBe('histogram');
    expect(value('kg_sparql_evaluation_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(value('kg_storage_writable', { service: 'kg-api' })).toBe(1);
    expect(value('kg_triples', {})).toBe(1);
    expect(value('kg_sources', {})).toBe(1);
    expect(value('kg_pulls_running', {})).toBe(0);
  });
});

describe('kg-api queue depths in /metrics', () => {
  it('counts a pull in progress in kg_pulls_running, and 0 once it ended', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const upstream = await startTestServer(async (_req, res) => {
      await held;
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.end(JSON.stringify({ '@id': 'https://ex.org/slow', [`${SKOS}prefLabel`]: 'Slow' }));
    });
    const dir = await mkdtemp(join(tmpdir(), 'kg-ops-'));
    const api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [{ ...source, id: 'slow', baseUrl: upstream.url }],
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
        metrics: { requireKey: false },
      },
    });
    const running = async () => {
      const { samples } = parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text());
      return samples.find((s) => s.name === 'kg_pulls_running')?.value;
    };
    try {
      const pull = fetch(`${api.url}/v1/sources/slow/ingest`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITER}` },
      });
      for (let i = 0; i < 100 && (await running()) !== 1; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await running()).toBe(1);
      release();
      expect((await pull).status).toBe(200);
      expect(await running()).toBe(0);
    } finally {
      release();
      await api.close();
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('kg-api SPARQL queue depth in /metrics', () => {
  it('shows in kg_sparql_queue_depth the queries waiting for a slot, and 0 once they left', async () => {
    const kg = await startVocabKgApi({
      prefix: 'kg-ops-',
      config: {
        metrics: { requireKey: false },
        sparql: { maxConcurrent: 1, maxQueued: 3, timeoutMs: 20_000 },
      },
    });
    const { api } = kg;
    const depth = async () => {
      const { samples, types } = parsePrometheusText(
        await (await fetch(`${api.url}/metrics`)).text(),
      );
      expect(types.get('kg_sparql_queue_depth')).toBe('gauge');
      return samples.find((s) => s.name === 'kg_sparql_queue_depth')?.value;
    };
    const clients = new AbortController();
    try {
      const put = await kg.upload(labelledConcepts(2_000), 'application/n-triples');
      expect(put.status).toBe(200);
      expect(await depth()).toBe(0);
      // One query takes the only slot; the next three wait for it.
      const queries = Array.from({ length: 4 }, (_, i) =>
        fetch(`${api.url}/v1/graph/sparql`, {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-query' },
          body: expensiveQuery(Date.now() * 100 + i),
          signal: clients.signal,
        }).catch(() => undefined),
      );
      for (let i = 0; i < 200 && (await depth()) !== 3; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(await depth()).toBe(3);
      const admission = async () => {
        const { samples } = parsePrometheusText(await (await fetch(`${api.url}/metrics`)).text());
        const of = (name: string, reason?: string) =>
          samples.find(
            (s) => s.name === name && (reason === undefined || s.labels.reason === reason),
          )?.value;
        return {
          running: of('kg_sparql_queries_running'),
          queueFull: of('kg_sparql_queries_refused_total', 'queue_full'),
          aborted: of('kg_sparql_queries_refused_total', 'aborted'),
        };
      };
      expect(await admission()).toEqual({ running: 1, queueFull: 0, aborted: 0 });
      // One more than sparql.maxQueued: refused at once.
      const extra = await fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: expensiveQuery(Date.now() * 100 + 9),
      });
      expect(extra.status).toBe(503);
      expect((await admission()).queueFull).toBe(1);
      // Clients that go away leave the queue.
      clients.abort();
      await Promise.all(queries);
      for (let i = 0; i < 200 && (await depth()) !== 0; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(await depth()).toBe(0);
      expect((await admission()).aborted).toBe(3);
    } finally {
      clients.abort();
      await kg.close();
    }
  }, 60_000);
});

describe('kg-api with readsRequireKey and the default metrics config', () => {
  it('documents reads and /metrics as needing a key, and refuses /metrics without one', async () => {
    const kg = await startVocabKgApi({ prefix: 'kg-ops-', auth: { readsRequireKey: true } });
    const { api } = kg;
    try {
      const { security } = await operations(api.url);
      expect(security('get /v1/search/query')).toEqual([{ bearerAuth: [] }]);
      expect(security('get /metrics')).toEqual([{ bearerAuth: [] }]);
      expect(security('get /health')).toEqual([]);
      // Through a proxy a key is asked; from this host outside production (the demo), none.
      const proxied = await fetch(`${api.url}/metrics`, {
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(proxied.status).toBe(401);
      expect((await fetch(`${api.url}/metrics`)).status).toBe(200);
      const scraped = await fetch(`${api.url}/metrics`, {
        headers: { authorization: `Bearer ${WRITER}` },
      });
      expect(scraped.status).toBe(200);
    } finally {
      await kg.close();
    }
  });
});
