import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer, TURTLE } from './__fixtures__/test-servers';
import {
  startVocabKgApi,
  type VocabKgApi,
  WRITER_KEY as WRITER,
} from './__fixtures__/vocab-kg-api';
import type { RunningKgApi } from './server';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
/** A request without an answer after this long is counted as a hang. */
const HANG_MS = 15_000;

const encoder = new TextEncoder();

/** Text with one byte that is not UTF-8 put in at `at` (of the encoded text). */
function withInvalidByte(text: string, at: number, byte: number): Uint8Array {
  const bytes = encoder.encode(text);
  const cut = Math.min(at, bytes.length);
  return new Uint8Array([...bytes.subarray(0, cut), byte, ...bytes.subarray(cut)]);
}

const deep = fc
  .record({
    open: fc.constantFrom('{', '(', '[', '{ {', 'OPTIONAL {', '{"@id":"urn:a","urn:p":'),
    close: fc.constantFrom('}', ')', ']', '} }', '}', '}'),
    depth: fc.integer({ min: 1, max: 30_000 }),
  })
  .map(({ open, close, depth }) => `${open.repeat(depth)}x${close.repeat(depth)}`);

const sparqlText = fc.oneof(
  fc.constantFrom(
    'SELECT * { ?s ?p ?o } LIMIT 5',
    'ASK { ?s ?p ?o }',
    `SELECT ?l { ?c <${SKOS}prefLabel> ?l FILTER(CONTAINS(?l, "Wat")) } ORDER BY ?l`,
    'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
    'LOAD <http://127.0.0.1:1/>',
    'SELECT * { SERVICE <http://x> { ?s ?p ?o } }',
    'SELECT (COUNT(*) AS ?n) { ?s ?p ?o }',
    '',
    ' ',
    'SELECT',
    'SELECT * { ?s ?p ?o } LIMIT 99999999999999999999',
    'SELECT * { ?s ?p ?o } OFFSET 99999999999999999999',
  ),
  deep.map((d) => `SELECT * WHERE { ${d} }`),
  fc
    .record({ n: fc.integer({ min: 1, max: 12_000 }), word: fc.constantFrom('UNION', 'OPTIONAL') })
    .map(({ n, word }) =>
      word === 'UNION'
        ? `SELECT * { ${Array(n).fill('{ ?s ?p ?o }').join(' UNION ')} }`
        : `SELECT * { ?s ?p ?o ${Array(n).fill('OPTIONAL { ?s ?p ?x }').join(' ')} }`,
    ),
  fc
    .integer({ min: 1, max: 30_000 })
    .map((n) => `SELECT * { FILTER(${Array(n).fill('1').join('+')}) }`),
  fc.string({ maxLength: 300 }),
);

const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** RDF/XML: nested elements or literals, DOCTYPE entities (nested, recursive, laughing), fragments. */
const rdfXml = fc.oneof(
  fc
    .record({
      depth: fc.integer({ min: 1, max: 60_000 }),
      literal: fc.boolean(),
      cut: fc.nat(),
    })
    .map(({ depth, literal, cut }) => {
      const inner = literal
        ? `<skos:note rdf:parseType="Literal">${'<b>'.repeat(depth)}${'</b>'.repeat(depth)}</skos:note>`
        : `${'<skos:narrower><rdf:Description>'.repeat(depth)}${'</rdf:Description></skos:narrower>'.repeat(depth)}`;
      const text = `<rdf:RDF xmlns:rdf="${RDF_NS}" xmlns:skos="${SKOS}"><rdf:Description rdf:about="urn:a">${inner}</rdf:Description></rdf:RDF>`;
      // Sometimes cut short: an unclosed document.
      return cut % 4 === 0 ? text.slice(0, cut % text.length) : text;
    }),
  fc
    .record({
      levels: fc.integer({ min: 1, max: 12 }),
      fanOut: fc.integer({ min: 1, max: 20 }),
      selfReference: fc.boolean(),
      value: fc.constantFrom('lol', '&amp;', '&#60;', '&#0;', '<b/>', '&undefined;', '%pe;'),
    })
    .map(({ levels, fanOut, selfReference, value }) => {
      const names = Array.from({ length: levels }, (_, i) => `e${i}`);
      const declarations = names
        .map((name, i) =>
          i === 0
            ? `<!ENTITY e0 "${selfReference ? '&e0;' : value}">`
            : `<!ENTITY ${name} "${`&e${i - 1};`.repeat(fanOut)}">`,
        )
        .join('');
      return `<?xml version="1.0"?><!DOCTYPE rdf:RDF [${declarations}]><rdf:RDF xmlns:rdf="${RDF_NS}"><rdf:Description rdf:about="urn:a"><rdf:value>&${names.at(-1)};</rdf:value></rdf:Description></rdf:RDF>`;
    }),
  fc.constantFrom(
    `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rdf:RDF xmlns:rdf="${RDF_NS}"><rdf:Description rdf:about="urn:a"><rdf:value>&x;</rdf:value></rdf:Description></rdf:RDF>`,
    `<rdf:RDF xmlns:rdf="${RDF_NS}"><rdf:Description rdf:about="urn:a"><rdf:value>&constructor;&__proto__;</rdf:value></rdf:Description></rdf:RDF>`,
    `<!DOCTYPE r [<!ENTITY a${' '.repeat(100_000)}]><r/>`,
    `<!DOCTYPE r [${'<!--'.repeat(50_000)}]><r/>`,
    `<r>${'&'.repeat(100_000)}</r>`,
  ),
);

const rdfBody = fc.oneof(
  rdfXml,
  fc.constantFrom(
    '',
    ' ',
    '\n',
    'null',
    '{}',
    '[]',
    '"x"',
    '{"port": 8080}',
    TURTLE,
    '@prefix a: <urn:a#> .',
  ),
  deep,
  fc.json({ maxDepth: 5 }),
  fc.string({ maxLength: 300 }),
  fc
    .integer({ min: 1, max: 3_000 })
    .map((n) =>
      Array.from(
        { length: n },
        (_, i) => `<https://ex.org/c${i}> <${SKOS}prefLabel> "c ${i}" .`,
      ).join('\n'),
    ),
);

/** A body as text or bytes, sometimes with an invalid UTF-8 byte put in. */
function maybeInvalid(text: fc.Arbitrary<string>): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 1,
      arbitrary: fc
        .tuple(text, fc.nat(400), fc.constantFrom(0xff, 0xc0, 0xed, 0x80, 0xf5, 0xe2))
        .map(([t, at, byte]) => withInvalidByte(t, at, byte)),
    },
  );
}

const pageNumber = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom('1e9', '99999999999999999999', '-0', 'NaN', '', '0x10', '1.5', '%FF'),
);

const contentType = fc.constantFrom(
  'text/turtle',
  'application/n-triples',
  'application/n-quads',
  'application/trig',
  'application/ld+json',
  'application/rdf+xml',
  'application/rdf+xml',
  'application/json',
  'text/plain; charset=latin1',
  'application/xml',
  '',
);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const request: fc.Arbitrary<FuzzRequest> = fc.oneof(
  maybeInvalid(sparqlText).map((body) => ({
    method: 'POST',
    path: '/v1/graph/sparql',
    headers: { 'content-type': 'application/sparql-query' },
    body,
  })),
  fc.tuple(sparqlText, fc.constantFrom('query', 'update')).map(([text, field]) => ({
    method: 'POST',
    path: '/v1/graph/sparql',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ [field]: text }).toString(),
  })),
  fc.tuple(sparqlText, fc.constantFrom('', '%FF', '%C3%28', '%E0%A4%A')).map(([text, bad]) => ({
    method: 'GET',
    path: `/v1/graph/sparql?query=${encodeURIComponent(text.slice(0, 4_000))}${bad}`,
    headers: {},
  })),
  fc.tuple(maybeInvalid(sparqlText), fc.constantFrom('recorder', 'nope')).map(([body, source]) => ({
    method: 'POST',
    path: `/passthrough/${source}/v1/graph/sparql`,
    headers: { 'content-type': 'application/sparql-query' },
    body,
  })),
  fc
    .tuple(
      maybeInvalid(rdfBody),
      contentType,
      fc.constantFrom('', '?allowEmpty=true', '?allowEmpty=x'),
    )
    .map(([body, type, query]) => ({
      method: 'PUT',
      path: `/v1/sources/vocab/graph${query}`,
      headers: { 'content-type': type, authorization: `Bearer ${WRITER}` },
      body,
    })),
  // The Graph Store: graph IRIs of this service and of others, with suffixes, repeated.
  fc
    .tuple(
      fc.constantFrom('GET', 'HEAD', 'PUT', 'DELETE', 'POST'),
      fc.array(
        fc.oneof(
          fc.constantFrom(
            'urn:dcg:source:vocab',
            'urn:dcg:source:nope',
            'urn:dcg:source:',
            'urn:dcg:source:vocab?y=1',
            'urn:dcg:source:vocab#f',
            'http://evil.example/v1/sources/vocab/graph',
            'https://127.0.0.1/v1/sources/vocab/graph',
            'SELF/v1/sources/vocab/graph',
            'SELF/v1/sources/vocab/graph?y=1',
            'SELF/v1/sources/vocab/graph#f',
            'SELF/v1/sources/vocab/graph/',
            'SELF/v1/sources/../graph',
            'SELF/v1/sources/%FF/graph',
            'default',
            '',
          ),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.string({ maxLength: 100 }),
        ),
        { minLength: 0, maxLength: 3 },
      ),
      maybeInvalid(rdfBody),
      contentType,
    )
    .map(([method, graphs, body, type]) => ({
      method,
      path: `/v1/graph/store?${graphs.map((g) => `graph=${encodeURIComponent(g)}`).join('&')}`,
      headers: { 'content-type': type, authorization: `Bearer ${WRITER}` },
      ...(method === 'PUT' || method === 'POST' ? { body } : {}),
    })),
  fc.tuple(fc.string({ maxLength: 300 }), pageNumber, pageNumber).map(([term, offset, limit]) => ({
    method: 'GET',
    path: `/v1/search/query?term=${encodeURIComponent(term)}&offset=${offset}&limit=${limit}`,
    headers: {},
  })),
  fc.tuple(pageNumber, pageNumber).map(([offset, limit]) => ({
    method: 'GET',
    path: `/passthrough/recorder/v1/search/query?term=water&offset=${offset}&limit=${limit}`,
    headers: {},
  })),
  fc
    .tuple(
      fc.constantFrom('vocab', 'nope', '%FF', '..', 'a'.repeat(300)),
      fc.constantFrom('text/turtle', 'application/n-triples', 'application/ld+json', '*/*', 'x/y'),
    )
    .map(([id, accept]) => ({
      method: 'GET',
      path: `/v1/sources/${id}/graph/content`,
      headers: { accept },
    })),
);

/**
 * Sends one request on its own connection (no keep-alive: a connection the server closes after
 * answering early, before reading a body, cannot fail the next request), within {@link HANG_MS}.
 */
function send(
  url: string,
  r: FuzzRequest,
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: r.method,
      headers: r.headers,
      agent: false,
      signal: AbortSignal.timeout(HANG_MS),
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body === undefined ? undefined : Buffer.from(r.body));
  });
}

describe('kg-api fuzz', () => {
  let kg: VocabKgApi;
  let api: RunningKgApi;
  let recorder: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    // A real upstream that answers valid SPARQL results and search pages to anything.
    recorder = await startTestServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          req.url?.includes('search')
            ? JSON.stringify({
                results: [],
                totalResults: 0,
                offset: 0,
                limit: 10,
                hasNextPage: false,
              })
            : JSON.stringify({ head: { vars: [] }, results: { bindings: [] } }),
        );
      });
    });
    kg = await startVocabKgApi({
      prefix: 'kg-fuzz-',
      sources: [
        {
          id: 'recorder',
          name: 'recorder',
          baseUrl: recorder.url,
          modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
        },
      ],
      config: { ingestion: { maxUploadBytes: 4 * 1024 * 1024 } },
    });
    api = kg.api;
  });
  afterAll(async () => {
    await kg?.close();
    await recorder?.close();
  });

  it('answers every request with a status below 500, in bounded time', async () => {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    let hangs = 0;
    let peakRss = process.memoryUsage().rss;
    await fc
      .assert(
        fc.asyncProperty(request, async (r) => {
          requests++;
          let status: number;
          try {
            const path = r.path.replaceAll(encodeURIComponent('SELF'), encodeURIComponent(api.url));
            const response = await send(`${api.url}${path}`, r);
            status = response.status;
            const text = response.body;
            if (status >= 400) expect(response.contentType).toMatch(/problem\+json/);
            if (status >= 500)
              failures.push(`${r.method} ${r.path.slice(0, 80)} → ${status} ${text.slice(0, 200)}`);
          } catch (error) {
            hangs++;
            failures.push(
              `${r.method} ${r.path.slice(0, 80)} → ${(error as Error).message} ${String((error as Error).cause ?? '')}`,
            );
            status = 0;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          return status > 0 && status < 500;
        }),
        {
          numRuns: RUNS,
          ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
        },
      )
      .catch((error: unknown) => {
        throw new Error(`${(error as Error).message}\n${failures.slice(0, 5).join('\n')}`);
      });
    console.log(
      `kg-api fuzz: ${requests} requests, ${failures.length} 5xx or hangs (${hangs} hangs), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}, peak RSS ${Math.round(peakRss / 2 ** 20)} MB`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
