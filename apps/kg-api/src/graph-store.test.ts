import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';
const READER = 'reader-key-0123456789abcdef';
const RDF_XML = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="${SKOS}">
  <skos:Concept rdf:about="https://ex.org/estuary">
    <skos:prefLabel xml:lang="en-GB">Estuary</skos:prefLabel>
  </skos:Concept>
</rdf:RDF>
`;

describe('RDF/XML uploads and the Graph Store Protocol', () => {
  let dir: string;
  let api: RunningKgApi;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-gsp-'));
    api = await startKgApi({
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
      config: {
        sources: [
          {
            id: 'thesaurus',
            name: 'thesaurus',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
          {
            id: 'remote',
            name: 'remote',
            sparqlEndpoint: 'http://127.0.0.1:1/sparql',
            modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
          },
        ],
        auth: {
          apiKeys: [
            { name: 'ci', key: WRITER },
            { name: 'ro', key: READER, role: 'reader' },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const store = (graph: string, init: RequestInit = {}, key = WRITER) =>
    fetch(`${api.url}/v1/graph/store?graph=${encodeURIComponent(graph)}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...init.headers },
    });
  const search = async (term: string) =>
    (
      (await (await fetch(`${api.url}/v1/search/query?term=${term}`)).json()) as {
        results: string[];
      }
    ).results;

  it('takes an RDF/XML upload (application/rdf+xml)', async () => {
    const response = await fetch(`${api.url}/v1/sources/thesaurus/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/rdf+xml', authorization: `Bearer ${WRITER}` },
      body: RDF_XML,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sourceId: 'thesaurus', triples: 2 });
    expect(await search('estuary')).toEqual(['https://ex.org/estuary']);
  });

  it('refuses malformed RDF/XML with the line and column, changing nothing', async () => {
    const response = await fetch(`${api.url}/v1/sources/thesaurus/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/rdf+xml', authorization: `Bearer ${WRITER}` },
      body: RDF_XML.replace('</skos:Concept>', '</skos:Collection>'),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'urn:dcg:kg:rdf_syntax',
      line: 5,
      column: 20,
    });
    expect(await search('estuary')).toEqual(['https://ex.org/estuary']);
  });

  it('PUT ?graph= replaces a source graph, GET returns it by Accept, DELETE removes it', async () => {
    const put = await store('urn:dcg:source:thesaurus', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: `<https://ex.org/lagoon> <${SKOS}prefLabel> "Lagoon"@en-GB .`,
    });
    expect(put.status).toBe(200);
    expect(await search('lagoon')).toEqual(['https://ex.org/lagoon']);
    expect(await search('estuary')).toEqual([]);

    // The URL of the graph resource names the same graph (direct identification's IRI).
    const get = await store(`${api.url}/v1/sources/thesaurus/graph`, {
      headers: { accept: 'text/turtle' },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/^text\/turtle/);
    expect(await get.text()).toContain('"Lagoon"@en-GB');
    const head = await store('urn:dcg:source:thesaurus', { method: 'HEAD' });
    expect(head.status).toBe(200);

    const del = await store('urn:dcg:source:thesaurus', { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ triples: 0 });
    expect(await search('lagoon')).toEqual([]);
  });

  it('accepts only its own graph IRIs: another host, a query, a fragment or a repeated graph is a 400 that changes nothing', async () => {
    const turtle = { 'content-type': 'text/turtle' };
    const put = (graph: string) =>
      store(graph, {
        method: 'PUT',
        headers: turtle,
        body: `<https://ex.org/fjord> <${SKOS}prefLabel> "Fjord" .`,
      });
    expect((await put('urn:dcg:source:thesaurus')).status).toBe(200);
    const own = `${api.url}/v1/sources/thesaurus/graph`;
    for (const graph of [
      'http://evil.example/v1/sources/thesaurus/graph',
      own.replace('127.0.0.1', 'localhost'),
      `${own}?y=1`,
      `${own}#f`,
      `${own}/`,
      `${api.url}/prefix/v1/sources/thesaurus/graph`,
      'urn:dcg:source:thesaurus?y=1',
      'urn:dcg:source:thesaurus#f',
    ]) {
      for (const method of ['PUT', 'DELETE', 'GET']) {
        const response = method === 'PUT' ? await put(graph) : await store(graph, { method });
        expect(response.status, `${method} ${graph}`).toBe(400);
        expect(((await response.json()) as { detail: string }).detail).toMatch(
          /names no graph of this service/,
        );
      }
    }
    const twice = await fetch(
      `${api.url}/v1/graph/store?graph=urn:dcg:source:thesaurus&graph=urn:dcg:source:remote`,
      { method: 'DELETE', headers: { authorization: `Bearer ${WRITER}` } },
    );
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { detail: string }).detail).toMatch(/given 2 times/);
    expect(await search('fjord')).toEqual(['https://ex.org/fjord']);
  });

  it('with publicUrl configured, names graphs by it and by nothing else', async () => {
    const other = await startKgApi({
      dataDir: join(dir, 'public-url'),
      logger: createLogger('test', { level: 'silent' }),
      config: {
        publicUrl: 'https://kg.example.org/api/',
        sources: [
          {
            id: 'thesaurus',
            name: 'thesaurus',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
        ],
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
      },
    });
    try {
      const put = (graph: string) =>
        fetch(`${other.url}/v1/graph/store?graph=${encodeURIComponent(graph)}`, {
          method: 'PUT',
          headers: { 'content-type': 'text/turtle', authorization: `Bearer ${WRITER}` },
          body: '<urn:a> <urn:b> "c" .',
        });
      expect((await put('https://kg.example.org/api/v1/sources/thesaurus/graph')).status).toBe(200);
      expect((await put(`${other.url}/v1/sources/thesaurus/graph`)).status).toBe(400);
      expect((await put('https://kg.example.org/v1/sources/thesaurus/graph')).status).toBe(400);
    } finally {
      await other.close();
    }
  });

  it('guards writes as uploads, and refuses what it cannot do', async () => {
    const turtle = { 'content-type': 'text/turtle' };
    const body = '<urn:a> <urn:b> "c" .';
    expect(
      (await store('urn:dcg:source:thesaurus', { method: 'PUT', headers: turtle, body }, READER))
        .status,
    ).toBe(403);
    expect((await store('urn:dcg:source:thesaurus', { method: 'DELETE' }, READER)).status).toBe(
      403,
    );
    expect(
      (await store('urn:dcg:source:remote', { method: 'PUT', headers: turtle, body })).status,
    ).toBe(403);
    expect((await store('urn:dcg:source:nope')).status).toBe(404);
    expect((await store('https://ex.org/some/graph')).status).toBe(400);
    const noGraph = await fetch(`${api.url}/v1/graph/store?default`);
    expect(noGraph.status).toBe(400);
    expect(((await noGraph.json()) as { detail: string }).detail).toMatch(
      /default graph is the union/,
    );
    const merge = await store('urn:dcg:source:thesaurus', {
      method: 'POST',
      headers: turtle,
      body,
    });
    expect(merge.status).toBe(405);
    expect(merge.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
  });
});
