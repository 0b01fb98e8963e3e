import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_QUERY_LIMITS } from '@dcg/sparql-subset';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from './errors';
import { GraphQueries } from './graph-queries';
import { KnowledgeBase } from './knowledge-base';
import { MemoryGraphPersistence } from './memory-graph-persistence.testkit';
import { parseRdf } from './parse-rdf';
import { SearchConfigSchema, type SourceConfig } from './source-config';

const ex = 'https://ex.org/';
const settings = {
  limits: DEFAULT_QUERY_LIMITS,
  maxRows: 3,
  maxBlockMs: 200,
  passthrough: { timeoutMs: 5_000, maxResponseBytes: 1_000_000 },
};

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<KnowledgeGraphError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!KnowledgeGraphError.isInstance(error))
    throw new Error(`not a KnowledgeGraphError: ${error}`);
  return error;
}

describe('GraphQueries', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const upstreamQueries: string[] = [];
  const upstreamHeaders: Array<Record<string, unknown>> = [];
  let kb: KnowledgeBase;
  let queries: GraphQueries;

  beforeAll(async () => {
    // A real upstream SPARQL endpoint: answers every query with one binding and records it.
    upstream = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        upstreamQueries.push(new URLSearchParams(body).get('query') ?? '');
        upstreamHeaders.push(request.headers);
        response.setHeader('content-type', 'application/sparql-results+json');
        response.end(
          JSON.stringify({
            head: { vars: ['s'] },
            results: { bindings: [{ s: { type: 'uri', value: `${ex}upstream` } }] },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const sources: SourceConfig[] = [
      {
        id: 'local',
        name: 'local',
        modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
      },
      {
        id: 'remote',
        name: 'remote',
        baseUrl: upstreamUrl,
        modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
      },
    ];
    kb = await KnowledgeBase.open({
      sources,
      search: SearchConfigSchema.parse({}),
      persistence: new MemoryGraphPersistence(),
    });
    const parsed = await parseRdf(
      [1, 2, 3, 4, 5].map((n) => `<${ex}c${n}> a <${ex}Concept> .`).join('\n'),
      'turtle',
    );
    if (!parsed.success) throw new Error('fixture');
    await kb.replaceGraph('local', parsed.data);
    queries = new GraphQueries(kb, settings);
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('answers a query over the ingested graphs with typed results', async () => {
    const results = await queries.query(`ASK { <${ex}c1> a <${ex}Concept> }`);
    expect(results).toEqual({ head: {}, boolean: true });
  });

  it('refuses a query outside the subset with query_rejected and the problem codes', async () => {
    const error = await failure(queries.query('SELECT * { SERVICE <urn:x> { ?s ?p ?o } }'));
    expect(error.code).toBe('query_rejected');
    expect(error.issues.map((p) => p.code)).toEqual(['SERVICE_NOT_SUPPORTED']);
  });

  it('ends a query with more rows than maxRows with row_limit_exceeded', async () => {
    const error = await failure(queries.query('SELECT ?s { ?s ?p ?o }'));
    expect(error.code).toBe('row_limit_exceeded');
  });

  it('ends a query that has no time left with query_timeout, and an aborted one with query_aborted', async () => {
    expect((await failure(queries.query('SELECT ?s { ?s ?p ?o }', { timeoutMs: 0 }))).code).toBe(
      'query_timeout',
    );
    const aborted = new AbortController();
    aborted.abort();
    const error = await failure(
      queries.query('SELECT ?s { ?s ?p ?o } LIMIT 1', { signal: aborted.signal }),
    );
    expect(error.code).toBe('query_aborted');
  });

  it('passes a query through to a source, and never an update', async () => {
    const answer = await queries.query('SELECT ?s { ?s ?p ?o }', { source: 'remote' });
    expect(answer.contentType).toBe('application/sparql-results+json');
    expect(answer.results).toEqual({
      head: { vars: ['s'] },
      results: { bindings: [{ s: { type: 'uri', value: `${ex}upstream` } }] },
    });
    expect(JSON.parse(answer.body)).toEqual(answer.results);
    expect(upstreamQueries).toEqual(['SELECT ?s { ?s ?p ?o }']);
    const update = await failure(
      queries.query('INSERT DATA { <urn:a> <urn:b> <urn:c> }', { source: 'remote' }),
    );
    expect(update.code).toBe('query_rejected');
    expect(update.issues[0]?.code).toBe('UPDATE_NOT_SUPPORTED');
    expect(upstreamQueries).toHaveLength(1);
  });

  it('refuses a client dataset and an Accept it cannot answer before anything is sent', async () => {
    const sent = upstreamQueries.length;
    const dataset = await failure(
      queries.query('ASK {}', { source: 'remote', datasetParameters: ['named-graph-uri'] }),
    );
    expect(dataset.code).toBe('dataset_unsupported');
    const accept = await failure(
      queries.query('ASK {}', { source: 'remote', accept: 'image/png' }),
    );
    expect(accept.code).toBe('not_acceptable');
    expect(upstreamQueries).toHaveLength(sent);
  });

  it("sends the source's credentials, the request id and the client's Accept upstream", async () => {
    const withCredentials = new GraphQueries(kb, {
      ...settings,
      upstreamHeaders: new Map([['remote', { authorization: 'Bearer t0ken-for-remote' }]]),
    });
    await withCredentials.query('ASK {}', {
      source: 'remote',
      requestId: 'request-1',
      accept: 'text/html, application/sparql-results+json',
    });
    expect(upstreamHeaders.at(-1)).toMatchObject({
      authorization: 'Bearer t0ken-for-remote',
      'x-request-id': 'request-1',
      accept: 'application/sparql-results+json',
    });
  });

  it('says why a source cannot be passed through to', async () => {
    expect((await failure(queries.query('ASK {}', { source: 'nope' }))).code).toBe(
      'unknown_source',
    );
    expect((await failure(queries.query('ASK {}', { source: 'local' }))).code).toBe(
      'passthrough_disabled',
    );
    expect(() => queries.passthroughSource('local')).toThrow(/passthrough is not enabled/);
    expect(queries.passthroughSource('remote').id).toBe('remote');
  });
});
