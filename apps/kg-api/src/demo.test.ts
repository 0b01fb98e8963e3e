import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { parsePrometheusText } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOOPBACK_SOURCE_ID } from './demo';
import { type RunningKgApi, startKgApi } from './server';

const logger = createLogger('kg-api-test', { level: 'silent' });
const GDPR = 'https://dcg.example.org/vocab/governance/gdpr';
const LABELS = `SELECT ?label WHERE { <${GDPR}> <http://www.w3.org/2004/02/skos/core#prefLabel> ?label } ORDER BY ?label`;

describe('the embedded demo (demo vocabulary and the demo-loopback passthrough source)', () => {
  let dir: string;
  let api: RunningKgApi;
  const passthrough = (query: string, init: { accept?: string; format?: string } = {}) =>
    fetch(`${api.url}/passthrough/${DEMO_LOOPBACK_SOURCE_ID}/v1/graph/sparql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(init.accept ? { accept: init.accept } : {}),
      },
      body: new URLSearchParams({ query, ...(init.format ? { format: init.format } : {}) }),
    });
  const metric = async (name: string, labels: Record<string, string>) => {
    const response = await fetch(`${api.url}/metrics`, {
      headers: { authorization: `Bearer ${api.developmentKey}` },
    });
    const { samples } = parsePrometheusText(await response.text());
    return (
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value ?? 0
    );
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-api-demo-'));
    // Port 0: the loopback learns the port the server got.
    api = await startKgApi({
      config: {},
      dataDir: dir,
      port: 0,
      demo: true,
      demoLoopback: true,
      logger,
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers /metrics on the demo without a key to a scrape from this host, and asks one through a proxy', async () => {
    const local = await fetch(`${api.url}/metrics`);
    expect(local.status).toBe(200);
    const { samples } = parsePrometheusText(await local.text());
    expect(samples.some((s) => s.name === 'dcg_build_info')).toBe(true);
    const proxied = await fetch(`${api.url}/metrics`, {
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(proxied.status).toBe(401);
  });

  it('lists demo-loopback as a passthrough-only source beside demo', async () => {
    const response = await fetch(`${api.url}/v1/sources`);
    const { sources } = (await response.json()) as {
      sources: { id: string; modes: Record<string, { enabled: boolean }> }[];
    };
    expect(
      sources.map((s) => [s.id, s.modes.ingestion?.enabled, s.modes.passthrough?.enabled]),
    ).toEqual([
      ['demo', true, false],
      [DEMO_LOOPBACK_SOURCE_ID, false, true],
    ]);
  });

  it('answers passthrough SPARQL with the rows of the internal endpoint, evaluated once there (no loop)', async () => {
    const evaluated = await metric('kg_sparql_evaluation_duration_seconds_count', {
      outcome: 'ok',
    });
    const internal = await fetch(`${api.url}/v1/graph/sparql?query=${encodeURIComponent(LABELS)}`);
    const expected = (await internal.json()) as { results: { bindings: unknown[] } };
    expect(expected.results.bindings.length).toBeGreaterThan(1);

    const response = await passthrough(LABELS);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/sparql-results+json');
    expect(await response.json()).toEqual(expected);
    // One evaluation for the internal query, one for the passthrough one: nothing went round.
    expect(await metric('kg_sparql_evaluation_duration_seconds_count', { outcome: 'ok' })).toBe(
      evaluated + 2,
    );
    expect(
      await metric('http_requests_total', {
        route: '/v1/graph/sparql',
        method: 'POST',
        status: '200',
      }),
    ).toBe(1);
  });

  it('passes format upstream: CSV rows from the internal endpoint', async () => {
    const response = await passthrough(LABELS, { format: 'csv', accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe('label');
    expect(lines.slice(1)).toEqual([
      'General Data Protection Regulation',
      'Regolamento generale sulla protezione dei dati',
    ]);
  });

  it('has no search API to pass search through to (a plain SPARQL endpoint, like Virtuoso)', async () => {
    const response = await fetch(
      `${api.url}/passthrough/${DEMO_LOOPBACK_SOURCE_ID}/v1/search/query?term=gdpr`,
    );
    expect(response.status).toBe(409);
  });

  it('refuses the loopback where it could not read (reads need a key) or its id is taken', async () => {
    const start = (config: object) =>
      startKgApi({ config, dataDir: join(dir, 'refused'), demoLoopback: true, logger }).then(
        () => 'started',
        (error: Error) => error.message,
      );
    expect(await start({ auth: { readsRequireKey: true } })).toMatch(
      /auth\.readsRequireKey: the demo loopback source reads without a key/,
    );
    const taken = {
      sources: [
        {
          id: DEMO_LOOPBACK_SOURCE_ID,
          name: 'mine',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
      ],
    };
    expect(await start(taken)).toMatch(/sources: "demo-loopback" is the demo's own source id/);
  });
});
