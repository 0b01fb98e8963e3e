import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { parseRdf } from '@dcg/knowledge-graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer, TURTLE } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';
const READER = 'reader-key-0123456789abcdef';
const logger = createLogger('kg-api-test', { level: 'silent' });

const local = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
  ...extra,
});

describe('kg-api over HTTP', () => {
  let dir: string;
  let api: RunningKgApi;
  const adapterGraph = {
    '@context': { skos: SKOS },
    '@graph': [{ '@id': 'https://adapter.example/c1', 'skos:prefLabel': 'Estuary' }],
  };
  let adapter: Awaited<ReturnType<typeof startTestServer>>;

  const put = (source: string, body: string, type: string, key = WRITER) =>
    fetch(`${api.url}/v1/sources/${source}/graph`, {
      method: 'PUT',
      headers: { 'content-type': type, authorization: `Bearer ${key}` },
      body,
    });
  const search = async (query: string) => {
    const response = await fetch(`${api.url}/v1/search/query?${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-api-'));
    adapter = await startTestServer((req, res) => {
      if (req.url === '/v1/graph/jsonld') {
        res.writeHead(200, { 'content-type': 'application/ld+json' });
        res.end(JSON.stringify(adapterGraph));
      } else {
        res.writeHead(404).end();
      }
    });
    api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [
          local('local'),
          local('other'),
          local('adapter', { baseUrl: adapter.url }),
          {
            ...local('frozen'),
            modes: { ingestion: { enabled: false }, passthrough: { enabled: false } },
          },
        ],
        auth: {
          apiKeys: [
            { name: 'ci', key: WRITER },
            { name: 'viewer', key: READER, role: 'reader' },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await adapter?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests Turtle and finds it by search, labels first', async () => {
    const response = await put('local', TURTLE, 'text/turtle');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sourceId: 'local', triples: 6 });
    const { body } = await search('term=water');
    expect(body).toMatchObject({ offset: 0, limit: 10, totalResults: 2 });
    expect(body.results).toEqual(['https://ex.org/water', 'https://ex.org/water-quality']);
  });

  it('gives the graph back as ingested, in the format asked for', async () => {
    const turtle = await fetch(`${api.url}/v1/sources/local/graph/content`, {
      headers: { accept: 'text/turtle' },
    });
    expect(turtle.status).toBe(200);
    expect(turtle.headers.get('content-type')).toMatch(/^text\/turtle/);
    const text = await turtle.text();
    expect(text).toMatch(/@prefix skos:/);
    const parsed = await parseRdf(text, 'turtle');
    expect(parsed.success && parsed.data.length).toBe(6);
    const nt = await fetch(`${api.url}/v1/sources/local/graph/content`);
    expect(nt.headers.get('content-type')).toMatch(/^application\/n-triples/);
    expect((await nt.text()).trim().split('\n')).toHaveLength(6);
    const jsonld = await fetch(`${api.url}/v1/sources/local/graph/content`, {
      headers: { accept: 'application/ld+json' },
    });
    expect(jsonld.status).toBe(406);
  });

  it('does not search a predicate that is not configured (skos:note)', async () => {
    const { body } = await search('term=flows');
    expect(body.totalResults).toBe(0);
  });

  it('answers 400 with the allowed range for bad search parameters', async () => {
    const missing = await search('limit=10');
    expect(missing.status).toBe(400);
    const tooLong = await search(`term=${'a'.repeat(257)}`);
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toMatch(/256/);
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const { status, body } = await search(`term=x&${bad}`);
      expect(status).toBe(400);
      expect(JSON.stringify(body.errors)).toMatch(/between/);
    }
  });

  it('reads N-Triples, N-Quads, TriG and JSON-LD by Content-Type', async () => {
    const cases: Array<[string, string]> = [
      ['application/n-triples', `<https://ex.org/a> <${SKOS}prefLabel> "Alpha" .\n`],
      ['application/n-quads', `<https://ex.org/a> <${SKOS}prefLabel> "Alpha" <urn:g> .\n`],
      ['application/trig', `<urn:g> { <https://ex.org/a> <${SKOS}prefLabel> "Alpha" . }`],
      [
        'application/ld+json',
        JSON.stringify({ '@id': 'https://ex.org/a', [`${SKOS}prefLabel`]: 'Alpha' }),
      ],
    ];
    for (const [type, body] of cases) {
      const response = await put('other', body, type);
      expect(response.status, type).toBe(200);
      expect(((await response.json()) as { triples: number }).triples).toBe(1);
      expect((await search('term=alpha')).body.results).toEqual(['https://ex.org/a']);
    }
  });

  it('rejects a malformed file with line and column, changing nothing', async () => {
    const response = await put(
      'local',
      '@prefix ex: <https://ex.org/> .\nex:a ex:b ex:c ;\n  ex:d ] .',
      'text/turtle',
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ line: 3, column: 8 });
    expect(String(problem.detail)).toMatch(/line 3, column 8/);
    expect((await search('term=water')).body.totalResults).toBe(2);
  });

  it('rejects a content type that is not RDF with 415', async () => {
    const response = await put('local', 'hello', 'text/html');
    expect(response.status).toBe(415);
  });

  it('needs a writer key for writes', async () => {
    const anonymous = await fetch(`${api.url}/v1/sources/local/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: TURTLE,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await put('local', TURTLE, 'text/turtle', 'wrong-key-0123456789abcdef')).status).toBe(
      401,
    );
    expect((await put('local', TURTLE, 'text/turtle', READER)).status).toBe(403);
    const del = await fetch(`${api.url}/v1/sources/local/graph`, { method: 'DELETE' });
    expect(del.status).toBe(401);
  });

  it('answers problems for unknown sources and disabled ingestion', async () => {
    const unknown = await put('nope', TURTLE, 'text/turtle');
    expect(unknown.status).toBe(404);
    const problem = (await unknown.json()) as { detail: string; type: string; code: string };
    expect(problem.detail).toMatch(/nope/);
    // One pattern for every dcg API: urn:dcg:<api>:<code>, the code in snake_case.
    expect(problem).toMatchObject({ type: 'urn:dcg:kg:unknown_source', code: 'unknown_source' });
    const frozen = await put('frozen', TURTLE, 'text/turtle');
    expect(frozen.status).toBe(403);
    expect(await frozen.json()).toMatchObject({
      type: 'urn:dcg:kg:ingestion_disabled',
      code: 'ingestion_disabled',
      instance: '/v1/sources/frozen/graph',
    });
  });

  it('pulls JSON-LD from a source adapter on POST /ingest', async () => {
    const response = await fetch(`${api.url}/v1/sources/adapter/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sourceId: 'adapter', triples: 1 });
    expect((await search('term=estuary')).body.results).toEqual(['https://adapter.example/c1']);
    const noBase = await fetch(`${api.url}/v1/sources/other/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER}` },
    });
    expect(noBase.status).toBe(409);
  });

  it('lists sources with their graphs', async () => {
    const response = await fetch(`${api.url}/v1/sources`);
    const body = (await response.json()) as {
      sources: Array<{ id: string; graph: { triples: number } }>;
    };
    expect(body.sources.map((s) => s.id)).toEqual(['local', 'other', 'adapter', 'frozen']);
    expect(body.sources[0]?.graph.triples).toBe(6);
  });

  it('deletes a graph', async () => {
    const response = await fetch(`${api.url}/v1/sources/adapter/graph`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${WRITER}` },
    });
    expect(response.status).toBe(200);
    expect((await search('term=estuary')).body.totalResults).toBe(0);
  });

  it('serves health, readiness, the OpenAPI document and the reference page', async () => {
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
    const ready = await fetch(`${api.url}/ready`);
    expect(await ready.json()).toMatchObject({ ready: true, sources: 4 });
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/search/query',
        '/v1/graph/sparql',
        '/v1/sources/{sourceId}/graph',
        '/v1/sources/{sourceId}/ingest',
        '/v1/sources/{sourceId}/graph/content',
        '/passthrough/{sourceId}/v1/search/query',
        '/passthrough/{sourceId}/v1/graph/sparql',
      ]),
    );
    const page = await fetch(`${api.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<span class="path">/v1/graph/sparql</span>');
    expect(html).not.toContain('<script');
  });

  it('keeps ingested graphs across a restart, and drops sources removed from configuration', async () => {
    await api.close();
    api = await startKgApi({
      dataDir: dir,
      logger,
      config: { sources: [local('local')], auth: { apiKeys: [{ name: 'ci', key: WRITER }] } },
    });
    expect((await search('term=water')).body.totalResults).toBe(2);
    expect((await search('term=alpha')).body.totalResults).toBe(0);
    await api.close();
    api = await startKgApi({
      dataDir: dir,
      logger,
      config: { sources: [local('local'), local('other')] },
    });
    expect((await search('term=alpha')).body.totalResults).toBe(0);
  });
});

describe('kg-api with readsRequireKey', () => {
  it('needs a key for reads, reader or writer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-api-'));
    const api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [local('local')],
        auth: { apiKeys: [{ name: 'viewer', key: READER, role: 'reader' }], readsRequireKey: true },
      },
    });
    try {
      expect((await fetch(`${api.url}/v1/search/query?term=x`)).status).toBe(401);
      const ok = await fetch(`${api.url}/v1/search/query?term=x`, {
        headers: { authorization: `Bearer ${READER}` },
      });
      expect(ok.status).toBe(200);
      expect((await fetch(`${api.url}/health`)).status).toBe(200);
    } finally {
      await api.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('makes a development writer key only when no key is configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-api-'));
    const bare = await startKgApi({ dataDir: dir, logger, config: { sources: [local('local')] } });
    try {
      expect(bare.developmentKey).toMatch(/^dcg-dev-[0-9a-f]{32}$/);
      const put = (key?: string) =>
        fetch(`${bare.url}/v1/sources/local/graph`, {
          method: 'PUT',
          headers: {
            'content-type': 'text/turtle',
            ...(key ? { authorization: `Bearer ${key}` } : {}),
          },
          body: '<https://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "alpha" .',
        });
      expect((await put()).status).toBe(401);
      expect((await put(bare.developmentKey)).status).toBeLessThan(300);
    } finally {
      await bare.close();
    }
    const keyed = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [local('local')],
        auth: { apiKeys: [{ name: 'viewer', key: READER, role: 'reader' }] },
      },
    });
    const off = await startKgApi({
      dataDir: await mkdtemp(join(tmpdir(), 'kg-api-')),
      logger,
      config: { sources: [local('local')], auth: { developmentKey: false } },
    });
    try {
      expect(keyed.developmentKey).toBeUndefined();
      expect(off.developmentKey).toBeUndefined();
    } finally {
      await keyed.close();
      await off.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an invalid configuration, naming the key', async () => {
    await expect(
      startKgApi({
        dataDir: tmpdir(),
        logger,
        config: { sources: [{ id: 'x' }], colour: 1 } as never,
      }),
    ).rejects.toThrow(/sources\[0\]\.name|colour/);
  });
});

describe('kg-api SPARQL', () => {
  let dir: string;
  let api: RunningKgApi;
  const query = `PREFIX skos: <${SKOS}>
SELECT ?c ?label WHERE { ?c skos:prefLabel ?label } ORDER BY ?label`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-api-'));
    api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [local('a'), local('b')],
        sparql: { timeoutMs: 5_000, maxRows: 3 },
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
      },
    });
    for (const [id, body] of [
      ['a', TURTLE],
      ['b', `<https://ex.org/lake> <${SKOS}prefLabel> "Lake" .`],
    ] as const) {
      await fetch(`${api.url}/v1/sources/${id}/graph`, {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle', authorization: `Bearer ${WRITER}` },
        body,
      });
    }
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const labelsOf = (json: { results: { bindings: Array<Record<string, { value: string }>> } }) =>
    json.results.bindings.map((b) => b.label?.value);

  it('answers the three protocol forms over the union of the graphs', async () => {
    const q = `PREFIX skos: <${SKOS}> SELECT ?label WHERE { ?c skos:prefLabel ?label } ORDER BY ?label LIMIT 3`;
    const responses = [
      await fetch(`${api.url}/v1/graph/sparql?query=${encodeURIComponent(q)}`),
      await fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: q,
      }),
      await fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        body: new URLSearchParams({ query: q }),
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/sparql-results\+json/);
      expect(labelsOf(await response.json())).toEqual(['Lake', 'River', 'Water']);
    }
  });

  it('rejects a query outside the subset with its problem codes and a passthrough hint', async () => {
    const response = await fetch(`${api.url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: 'SELECT * WHERE { SERVICE <http://x.example/sparql> { ?s ?p ?o } }',
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as {
      problems: Array<{ code: string }>;
      detail: string;
    };
    expect(problem.problems.length).toBeGreaterThan(0);
    expect(problem.problems[0]?.code).toMatch(/SERVICE/);
    expect(problem.detail).toMatch(/[Pp]assthrough/);
  });

  it('enforces the configured row limit', async () => {
    const response = await fetch(`${api.url}/v1/graph/sparql?query=${encodeURIComponent(query)}`);
    expect(response.status).toBe(422);
    expect(response.headers.get('server-timing')).toMatch(/^app;dur=\d/);
    expect(await response.json()).toMatchObject({
      type: 'urn:dcg:kg:row_limit_exceeded',
      detail: expect.stringMatching(/more than 3 rows \(sparql\.maxRows\)/),
    });
  });

  it('answers 400 without a query and 415 for another body type', async () => {
    // A GET of the bare endpoint is the Service Description; an empty query is still missing.
    expect((await fetch(`${api.url}/v1/graph/sparql?query=`)).status).toBe(400);
    const noQuery = await fetch(`${api.url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'format=json',
    });
    expect(noQuery.status).toBe(400);
    const wrong = await fetch(`${api.url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(wrong.status).toBe(415);
  });
});
