import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer, TURTLE } from './__fixtures__/test-servers';
import { startVocabKgApi, type VocabKgApi } from './__fixtures__/vocab-kg-api';
import { type RunningKgApi, startKgApi } from './server';

const logger = createLogger('kg-api-test', { level: 'silent' });
const GRAPH = 'https://ex.org/graph';
const modes = (passthrough: boolean) => ({
  ingestion: { enabled: false },
  passthrough: { enabled: passthrough },
});

const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: passthrough against Virtuoso (${availability.reason})`);
}

describe('passthrough', () => {
  const dirs: string[] = [];
  let upstreamKg: VocabKgApi;
  let upstream: RunningKgApi;
  let api: RunningKgApi;
  let virtuoso: Awaited<ReturnType<typeof startVirtuoso>> | undefined;
  const misbehaving: Array<Awaited<ReturnType<typeof startTestServer>>> = [];

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-api-'));
    dirs.push(dir);
    // A second kg-api acts as the upstream source.
    upstreamKg = await startVocabKgApi({ prefix: 'kg-up-' });
    upstream = upstreamKg.api;
    const put = await upstreamKg.upload(TURTLE);
    expect(put.status).toBe(200);

    const slow = await startTestServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 3_000);
    });
    const garbage = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results": "not a list", "head": 3');
    });
    const wrongShape = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [1, 2], totalResults: 'many' }));
    });
    const failing = await startTestServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal stack trace here');
    });
    const redirecting = await startTestServer((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    });
    misbehaving.push(slow, garbage, wrongShape, failing, redirecting);

    if (availability.available) {
      virtuoso = await startVirtuoso();
      await virtuoso.load(
        `<https://ex.org/water> <${SKOS}prefLabel> "Water"@en .\n<https://ex.org/river> <${SKOS}prefLabel> "River"@en .\n<https://ex.org/river> <${SKOS}broader> <https://ex.org/water> .\n`,
        GRAPH,
      );
    }

    api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        // Above what Virtuoso takes for a first property-path query on a busy machine, below the slow upstream.
        passthrough: { timeoutMs: 2_000, maxResponseBytes: 1_000_000 },
        sources: [
          { id: 'kg', name: 'second kg-api', baseUrl: upstream.url, modes: modes(true) },
          { id: 'closed', name: 'closed', baseUrl: upstream.url, modes: modes(false) },
          { id: 'slow', name: 'slow', baseUrl: slow.url, modes: modes(true) },
          { id: 'garbage', name: 'garbage', baseUrl: garbage.url, modes: modes(true) },
          { id: 'shape', name: 'shape', baseUrl: wrongShape.url, modes: modes(true) },
          { id: 'failing', name: 'failing', baseUrl: failing.url, modes: modes(true) },
          { id: 'redirect', name: 'redirect', baseUrl: redirecting.url, modes: modes(true) },
          { id: 'down', name: 'down', baseUrl: 'http://127.0.0.1:1', modes: modes(true) },
          ...(virtuoso
            ? [
                {
                  id: 'virtuoso',
                  name: 'Virtuoso',
                  sparqlEndpoint: virtuoso.sparqlUrl,
                  searchEndpoint: `${virtuoso.sparqlUrl}/no-search`,
                  defaultGraphUri: GRAPH,
                  modes: modes(true),
                },
              ]
            : []),
        ],
      },
    });
  });

  afterAll(async () => {
    await api?.close();
    await upstreamKg?.close();
    for (const server of misbehaving) await server.close();
    await virtuoso?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const sparql = (source: string, query: string) =>
    fetch(`${api.url}/passthrough/${source}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: query,
    });

  it('forwards search to a second kg-api', async () => {
    const response = await fetch(`${api.url}/passthrough/kg/v1/search/query?term=water&limit=1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      results: ['https://ex.org/water'],
      totalResults: 2,
      offset: 0,
      limit: 1,
    });
  });

  it('forwards SPARQL to a second kg-api', async () => {
    const response = await sparql(
      'kg',
      `PREFIX skos: <${SKOS}> SELECT ?l WHERE { <https://ex.org/river> skos:prefLabel ?l }`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      results: { bindings: Array<{ l: { value: string } }> };
    };
    expect(body.results.bindings.map((b) => b.l.value)).toEqual(['River']);
  });

  it('passes on an upstream rejection of a query as 400', async () => {
    const response = await sparql('kg', 'SELECT * WHERE { ?s <urn:p>* ?o }');
    expect(response.status).toBe(400);
  });

  it('answers 404 for an unknown source and 403 when passthrough is not enabled', async () => {
    expect((await fetch(`${api.url}/passthrough/nope/v1/search/query?term=x`)).status).toBe(404);
    const closed = await fetch(`${api.url}/passthrough/closed/v1/search/query?term=x`);
    expect(closed.status).toBe(403);
    expect(((await closed.json()) as { detail: string }).detail).toMatch(
      /passthrough is not enabled/,
    );
    expect((await sparql('closed', 'SELECT * WHERE { ?s ?p ?o }')).status).toBe(403);
  });

  it('validates the request before forwarding', async () => {
    expect(
      (await fetch(`${api.url}/passthrough/kg/v1/search/query?term=x&limit=1000`)).status,
    ).toBe(400);
  });

  it('answers 504 when the upstream is too slow', async () => {
    const response = await fetch(`${api.url}/passthrough/slow/v1/search/query?term=x`);
    expect(response.status).toBe(504);
    expect((await sparql('slow', 'SELECT * WHERE { ?s ?p ?o }')).status).toBe(504);
  });

  it('answers 502 for malformed, failing, redirecting or unreachable upstreams', async () => {
    for (const source of ['garbage', 'shape', 'failing', 'redirect', 'down']) {
      const search = await fetch(`${api.url}/passthrough/${source}/v1/search/query?term=x`);
      expect(search.status, source).toBe(502);
      expect(search.headers.get('content-type')).toMatch(/problem\+json/);
      expect(await search.text()).not.toMatch(/stack trace/);
      expect((await sparql(source, 'SELECT * WHERE { ?s ?p ?o }')).status, source).toBe(502);
    }
  });

  it.skipIf(!availability.available)(
    'forwards SPARQL to Virtuoso with its default graph',
    async () => {
      const response = await sparql(
        'virtuoso',
        `PREFIX skos: <${SKOS}> SELECT ?label WHERE { ?c skos:broader <https://ex.org/water> ; skos:prefLabel ?label }`,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        results: { bindings: Array<{ label: { value: string } }> };
      };
      expect(body.results.bindings.map((b) => b.label.value)).toEqual(['River']);
      // Richer SPARQL than the internal subset goes through to Virtuoso.
      const path = await sparql(
        'virtuoso',
        `PREFIX skos: <${SKOS}> SELECT ?c WHERE { ?c skos:broader+ <https://ex.org/water> }`,
      );
      expect(path.status).toBe(200);
    },
  );
});
