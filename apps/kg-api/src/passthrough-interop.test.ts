import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const GRAPH = 'https://ex.org/graph';
const modes = { ingestion: { enabled: false }, passthrough: { enabled: true } };
const SECRET = 's3cr3t-p4ssw0rd-never-shown';
const TOKEN = 'b34r3r-t0k3n-never-shown';
const PROXY_KEY = 'pr0xy-k3y-never-shown';
const WRITER = 'writer-key-0123456789abcdef';

const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: passthrough interoperability with Virtuoso (${availability.reason})`);
}

/** A SPARQL upstream that records the headers of each call and answers as told by the query. */
async function recordingUpstream() {
  const seen: IncomingHttpHeaders[] = [];
  const server = await startTestServer((req, res) => {
    seen.push(req.headers);
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/adapter/v1/graph/jsonld') {
        res
          .writeHead(200, { 'content-type': 'application/ld+json' })
          .end('{"@id":"https://ex.org/pond","http://www.w3.org/2000/01/rdf-schema#label":"Pond"}');
        return;
      }
      const query = new URLSearchParams(body).get('query') ?? '';
      if (query.includes('echo')) {
        const echoed = `${req.headers.authorization} ${req.headers['x-proxy-key']} ${TOKEN}`;
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request from ${echoed}`);
      } else if (query.includes('fail')) {
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`echo ${req.headers.authorization}`);
      } else if (query.includes('html')) {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
      } else if (query.includes('refuse')) {
        res.writeHead(406, { 'content-type': 'text/plain' }).end('no such type');
      } else {
        res
          .writeHead(200, { 'content-type': 'application/sparql-results+json' })
          .end('{"head":{"vars":[]},"results":{"bindings":[]}}');
      }
    });
  });
  return { ...server, seen };
}

describe('passthrough interoperability', () => {
  const dirs: string[] = [];
  const logLines: string[] = [];
  let api: RunningKgApi;
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let virtuoso: Awaited<ReturnType<typeof startVirtuoso>> | undefined;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-interop-'));
    dirs.push(dir);
    upstream = await recordingUpstream();
    if (availability.available) {
      virtuoso = await startVirtuoso();
      await virtuoso.load(
        `<https://ex.org/water> <${SKOS}prefLabel> "Water"@en-US .\n<https://ex.org/river> <${SKOS}broader> <https://ex.org/water> .\n`,
        GRAPH,
      );
    }
    api = await startKgApi({
      dataDir: dir,
      logger: createLogger('kg-api-test', { level: 'debug', write: (line) => logLines.push(line) }),
      env: { GRAPHDB_PASSWORD: SECRET, STARDOG_TOKEN: TOKEN, PROXY_KEY, ADAPTER_USER: 'kg' },
      config: {
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
        passthrough: { timeoutMs: 5_000, maxResponseBytes: 1_000_000 },
        sources: [
          {
            id: 'graphdb',
            name: 'GraphDB-style (Basic)',
            sparqlEndpoint: `${upstream.url}/repositories/kg`,
            upstreamAuth: { basic: { username: 'reader', passwordFromEnv: 'GRAPHDB_PASSWORD' } },
            modes,
          },
          {
            id: 'adapter',
            name: 'a source adapter behind Basic auth',
            baseUrl: `${upstream.url}/adapter`,
            upstreamAuth: {
              basic: { usernameFromEnv: 'ADAPTER_USER', passwordFromEnv: 'GRAPHDB_PASSWORD' },
            },
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
          {
            id: 'stardog',
            name: 'Stardog-style (Bearer and a custom header)',
            sparqlEndpoint: `${upstream.url}/kg/query`,
            upstreamAuth: {
              bearer: { tokenFromEnv: 'STARDOG_TOKEN' },
              headers: { 'X-Proxy-Key': { fromEnv: 'PROXY_KEY' } },
            },
            modes,
          },
          ...(virtuoso
            ? [
                // As in the README: a plain SPARQL endpoint, no baseUrl, no searchEndpoint.
                {
                  id: 'virtuoso',
                  name: 'Virtuoso',
                  sparqlEndpoint: virtuoso.sparqlUrl,
                  defaultGraphUri: GRAPH,
                  modes,
                },
              ]
            : []),
        ],
      },
    });
  });

  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await virtuoso?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const sparql = (source: string, query: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/passthrough/${source}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', ...headers },
      body: query,
    });

  it('sends Basic credentials read from the environment, and the request id', async () => {
    const response = await sparql('graphdb', 'SELECT * WHERE { ?s ?p ?o }', {
      'x-request-id': 'trace-graphdb-1',
    });
    expect(response.status).toBe(200);
    const headers = upstream.seen.at(-1);
    expect(headers?.authorization).toBe(
      `Basic ${Buffer.from(`reader:${SECRET}`).toString('base64')}`,
    );
    expect(headers?.['x-request-id']).toBe('trace-graphdb-1');
  });

  it('sends a Bearer token and custom headers, and a request id of its own when none came', async () => {
    const response = await sparql('stardog', 'SELECT * WHERE { ?s ?p ?o }');
    expect(response.status).toBe(200);
    const headers = upstream.seen.at(-1);
    expect(headers?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(headers?.['x-proxy-key']).toBe(PROXY_KEY);
    expect(headers?.['x-request-id']).toBe(response.headers.get('x-request-id'));
  });

  it('sends the credentials with a pull from a source adapter too', async () => {
    const response = await fetch(`${api.url}/v1/sources/adapter/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER}` },
    });
    expect(response.status).toBe(200);
    expect(upstream.seen.at(-1)?.authorization).toBe(
      `Basic ${Buffer.from(`kg:${SECRET}`).toString('base64')}`,
    );
  });

  it('never shows a credential in a problem or in the log', async () => {
    const failed = await sparql('stardog', 'SELECT * WHERE { ?s ?p "fail" }');
    expect(failed.status).toBe(502);
    const text = await failed.text();
    expect(text).toMatch(/answered HTTP 500/);
    for (const secret of [SECRET, TOKEN, PROXY_KEY]) {
      expect(text).not.toContain(secret);
      expect(logLines.join('\n')).not.toContain(secret);
    }
    expect(logLines.join('\n')).toMatch(/upstream source failed/);
    // An upstream that echoes the request in a rejection gets it blanked.
    const echoed = await sparql('stardog', 'SELECT * WHERE { ?s ?p "echo" }');
    expect(echoed.status).toBe(400);
    const detail = ((await echoed.json()) as { detail: string }).detail;
    expect(detail).toMatch(/bad request from \[REDACTED\] \[REDACTED\] \[REDACTED\]/);
    for (const secret of [SECRET, TOKEN, PROXY_KEY]) expect(detail).not.toContain(secret);
  });

  it('refuses an upstream answer that is neither SPARQL results nor RDF', async () => {
    const response = await sparql('graphdb', 'SELECT * WHERE { ?s ?p "html" }');
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain('<script>');
  });

  it("answers 406 when the client accepts no type passthrough forwards, or the upstream none of the client's", async () => {
    const calls = upstream.seen.length;
    const ours = await sparql('graphdb', 'SELECT * WHERE { ?s ?p ?o }', { accept: 'image/png' });
    expect(ours.status).toBe(406);
    expect(((await ours.json()) as { detail: string }).detail).toMatch(/text\/turtle/);
    expect(upstream.seen.length).toBe(calls);
    const theirs = await sparql('graphdb', 'SELECT * WHERE { ?s ?p "refuse" }', {
      accept: 'text/csv',
    });
    expect(theirs.status).toBe(406);
    expect(upstream.seen.at(-1)?.accept).toBe('text/csv');
  });

  it("forwards only the client's ranges that name a type passthrough passes on", async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    expect(
      (await sparql('graphdb', 'SELECT * WHERE { ?s ?p ?o }', { accept: browser })).status,
    ).toBe(200);
    expect(upstream.seen.at(-1)?.accept).toBe('application/xml;q=0.9');
    const unknown = await fetch(`${api.url}/passthrough/graphdb/v1/graph/sparql?format=html`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: 'SELECT * WHERE { ?s ?p ?o }',
    });
    expect(unknown.status).toBe(400);
    await sparql('graphdb', 'SELECT * WHERE { ?s ?p ?o }', { accept: 'text/html, */*' });
    expect(upstream.seen.at(-1)?.accept).toBe('application/sparql-results+json');
    await sparql(
      'graphdb',
      '# a comment\nPREFIX ex: <urn:ex#> CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }',
    );
    expect(upstream.seen.at(-1)?.accept).toMatch(/^text\/turtle/);
  });

  it('refuses default-graph-uri and named-graph-uri instead of dropping them', async () => {
    const calls = upstream.seen.length;
    const response = await fetch(
      `${api.url}/passthrough/graphdb/v1/graph/sparql?default-graph-uri=urn:other`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: 'SELECT * WHERE { ?s ?p ?o }',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'urn:dcg:kg:dataset_unsupported',
    });
    const form = await fetch(`${api.url}/passthrough/graphdb/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        query: 'SELECT * WHERE { ?s ?p ?o }',
        'named-graph-uri': 'urn:g',
      }),
    });
    expect(form.status).toBe(400);
    expect(upstream.seen.length).toBe(calls);
  });

  describe.skipIf(!availability.available)('a Virtuoso source with only sparqlEndpoint', () => {
    it('passes SPARQL through', async () => {
      const response = await sparql(
        'virtuoso',
        `SELECT ?c WHERE { ?c <${SKOS}broader> <https://ex.org/water> }`,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/sparql-results\+json/);
      const body = (await response.json()) as {
        results: { bindings: Array<{ c: { value: string } }> };
      };
      expect(body.results.bindings.map((b) => b.c.value)).toEqual(['https://ex.org/river']);
    });

    it('says search needs a search API, pointing to SPARQL', async () => {
      const response = await fetch(`${api.url}/passthrough/virtuoso/v1/search/query?term=water`);
      expect(response.status).toBe(409);
      expect(((await response.json()) as { detail: string }).detail).toMatch(
        /no search API.*use passthrough SPARQL/,
      );
    });

    it('passes Accept through for XML and CSV results', async () => {
      const query = `SELECT ?c WHERE { ?c <${SKOS}broader> <https://ex.org/water> }`;
      const xml = await sparql('virtuoso', query, { accept: 'application/sparql-results+xml' });
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toMatch(/^application\/sparql-results\+xml/);
      expect(await xml.text()).toMatch(/<uri>https:\/\/ex.org\/river<\/uri>/);
      const tsv = await fetch(
        `${api.url}/passthrough/virtuoso/v1/graph/sparql?format=tsv&query=${encodeURIComponent(query)}`,
        { headers: { accept: 'application/sparql-results+json' } },
      );
      expect(tsv.headers.get('content-type')).toMatch(/^text\/tab-separated-values/);
      const csv = await sparql('virtuoso', query, { accept: 'text/csv' });
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect((await csv.text()).trim().split(/\r?\n/)).toEqual(['"c"', '"https://ex.org/river"']);
    });

    it('answers CONSTRUCT as RDF with the upstream media type', async () => {
      const query = `CONSTRUCT { ?c <${SKOS}broader> ?b } WHERE { ?c <${SKOS}broader> ?b }`;
      const triple =
        '<https://ex.org/river> <http://www.w3.org/2004/02/skos/core#broader> <https://ex.org/water>';
      const turtle = await sparql('virtuoso', query);
      expect(turtle.status).toBe(200);
      expect(turtle.headers.get('content-type')).toMatch(/^text\/turtle/);
      const nt = await sparql('virtuoso', query, { accept: 'application/n-triples' });
      expect(nt.headers.get('content-type')).toMatch(/^application\/n-triples/);
      expect((await nt.text()).replace(/\s+/g, ' ')).toContain(triple);
      const jsonld = await sparql('virtuoso', query, { accept: 'application/ld+json' });
      expect(jsonld.headers.get('content-type')).toMatch(/^application\/ld\+json/);
      expect(JSON.stringify(await jsonld.json())).toContain('https://ex.org/river');
    });
  });
});

describe('upstream credentials at start-up', () => {
  /** Starts kg-api with one source of these credentials; resolves with why it did not start. */
  async function startUpError(upstreamAuth: unknown, env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), 'kg-interop-'));
    try {
      const api = await startKgApi({
        dataDir: dir,
        logger: createLogger('kg-api-test', { level: 'silent' }),
        env,
        config: {
          sources: [
            {
              id: 'stardog',
              name: 'Stardog',
              sparqlEndpoint: 'http://127.0.0.1:1/query',
              upstreamAuth: upstreamAuth as never,
              modes,
            },
          ],
        },
      });
      await api.close();
      return 'started';
    } catch (error) {
      return (error as Error).message;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('stops start-up naming the variable that is not set', async () => {
    expect(await startUpError({ bearer: { tokenFromEnv: 'STARDOG_TOKEN' } }, {})).toMatch(
      /sources\[0\]\.upstreamAuth\.bearer\.tokenFromEnv: environment variable STARDOG_TOKEN is not set/,
    );
  });

  it('refuses configuring a header passthrough sets itself', async () => {
    expect(
      await startUpError({ headers: { 'X-Request-Id': { fromEnv: 'X' } } }, { X: 'y' }),
    ).toMatch(/cannot be configured/);
  });
});
