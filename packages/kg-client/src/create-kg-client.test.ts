import { isSelectResults } from '@dcg/kg-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught } from './__fixtures__/caught';
import { startFaultServer } from './__fixtures__/fault-server';
import { createKgClient, type KgClient } from './create-kg-client';
import {
  KgAbortError,
  KgClientError,
  KgNetworkError,
  KgProblemError,
  KgResponseError,
  KgTimeoutError,
} from './kg-client-error';

let server: Awaited<ReturnType<typeof startFaultServer>>;
let client: KgClient;

beforeAll(async () => {
  server = await startFaultServer();
  client = createKgClient({ baseUrl: server.url, apiKey: 'secret-key', timeoutMs: 10_000 });
});

afterAll(async () => {
  await server?.close();
});

describe('search', () => {
  it('sends term, offset, limit, the API key and Accept, and returns the validated page', async () => {
    const page = await client.search('ok-25', { offset: 20, limit: 10 });
    expect(page).toEqual({
      results: [20, 21, 22, 23, 24].map((index) => `https://ex.org/ok-25/${index}`),
      totalResults: 25,
      offset: 20,
      limit: 10,
    });
    const url = new URL(server.lastUrl());
    expect(url.pathname).toBe('/v1/search/query');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      term: 'ok-25',
      offset: '20',
      limit: '10',
    });
    expect(server.lastHeaders()).toMatchObject({
      authorization: 'Bearer secret-key',
      accept: 'application/json',
    });
  });

  it('leaves offset and limit to the server when not given', async () => {
    await client.search('ok-3');
    expect([...new URL(server.lastUrl()).searchParams.keys()]).toEqual(['term']);
  });

  it('refuses bad arguments before sending anything', async () => {
    for (const [term, options] of [
      ['', {}],
      ['x'.repeat(257), {}],
      ['bad-args', { limit: 0 }],
      ['bad-args', { limit: 101 }],
      ['bad-args', { offset: -1 }],
      ['bad-args', { limit: 2.5 }],
      ['bad-args', { lang: 'en_US' }],
      ['bad-args', { lang: ['en', ''] }],
      ['bad-args', { type: 'not an iri' }],
      ['bad-args', { scheme: ['relative/path'] }],
      ['bad-args', { lang: Array.from({ length: 17 }, () => 'en') }],
    ] as const) {
      const error = await caught(client.search(term, options));
      expect(error).toBeInstanceOf(KgClientError);
      expect((error as KgClientError).code).toBe('invalid_argument');
    }
    expect(server.count('bad-args')).toBe(0);
    expect(server.count('')).toBe(0);
  });

  it('retries a 503 and succeeds', async () => {
    const page = await client.search('503-once');
    expect(page.results).toHaveLength(3);
    expect(server.count('503-once')).toBe(2);
  });

  it('gives up after the allowed retries with the problem details', async () => {
    const quick = createKgClient({ baseUrl: server.url, retries: 1, timeoutMs: 5_000 });
    const error = await caught(quick.search('503-always'));
    expect(error).toBeInstanceOf(KgProblemError);
    expect(error).toMatchObject({ code: 'problem', status: 503, problem: { title: 'fault 503' } });
    expect(server.count('503-always')).toBe(2);
  });

  it('does not wait for a Retry-After beyond the deadline: the 503 comes back at once', async () => {
    const started = Date.now();
    const error = await caught(client.search('503-later'));
    expect(error).toMatchObject({
      code: 'problem',
      status: 503,
      problem: { detail: 'back in an hour' },
    });
    expect(Date.now() - started).toBeLessThan(900);
    expect(server.count('503-later')).toBe(1);
  });

  it('retries a connection reset', async () => {
    const page = await client.search('reset-once');
    expect(page.totalResults).toBe(3);
    expect(server.count('reset-once')).toBe(2);
  });

  it('does not retry a 400 and keeps every member of the problem, status from the status line', async () => {
    const error = await caught(client.search('400'));
    expect(server.count('400')).toBe(1);
    expect(error).toBeInstanceOf(KgProblemError);
    const problem = (error as KgProblemError).problem;
    expect((error as KgProblemError).status).toBe(400);
    expect(problem).toEqual({
      type: 'https://dcg.example/problems/bad-term',
      title: 'fault 400',
      status: 400,
      detail: 'injected 400',
      errors: [{ path: '$.term', message: 'too long' }],
      hint: 'shorter',
    });
    expect((error as Error).message).toBe('HTTP 400 fault 400: injected 400');
  });

  it('turns a non-problem error page into problem details', async () => {
    const noRetry = createKgClient({ baseUrl: server.url, retries: 0 });
    const error = await caught(noRetry.search('html-502'));
    expect(error).toBeInstanceOf(KgProblemError);
    expect((error as KgProblemError).problem).toMatchObject({
      type: 'about:blank',
      status: 502,
      detail: expect.stringContaining('upstream down'),
    });
  });

  it('times out on slow headers and on a body that never ends', async () => {
    const quick = createKgClient({ baseUrl: server.url, timeoutMs: 1_000 });
    for (const term of ['slow-headers', 'slow-body']) {
      const started = Date.now();
      const error = await caught(quick.search(term));
      expect(error).toBeInstanceOf(KgTimeoutError);
      expect(error).toMatchObject({ code: 'timeout', timeoutMs: 1_000 });
      // The server would answer after 5 s (or never): the deadline, not the server, ended the call.
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(server.count(term)).toBe(1);
    }
  });

  it('aborts on the caller signal, and does not send with a signal already aborted', async () => {
    const controller = new AbortController();
    const pending = client.search('slow-body', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 100);
    const error = await caught(pending);
    expect(error).toBeInstanceOf(KgAbortError);
    expect((error as KgAbortError).cause).toEqual(new Error('user left'));

    const before = server.count('ok-3');
    const aborted = await caught(client.search('ok-3', { signal: AbortSignal.abort() }));
    expect(aborted).toBeInstanceOf(KgAbortError);
    expect(server.count('ok-3')).toBe(before);
  });

  it('rejects malformed answers: not JSON, wrong shape, too large, not UTF-8', async () => {
    const notJson = await caught(client.search('bad-json'));
    expect(notJson).toBeInstanceOf(KgResponseError);
    expect((notJson as Error).message).toMatch(/not JSON/);

    const shape = await caught(client.search('bad-shape'));
    expect(shape).toBeInstanceOf(KgResponseError);
    expect((shape as KgResponseError).issues).toEqual([
      {
        code: 'invalid_format',
        segments: ['results', 1],
        path: '$.results[1]',
        message: 'must be an absolute IRI',
      },
    ]);

    const small = createKgClient({ baseUrl: server.url, maxResponseBytes: 100_000 });
    const huge = await caught(small.search('huge'));
    expect(huge).toBeInstanceOf(KgResponseError);
    expect((huge as Error).message).toMatch(/larger than 100000 bytes/);

    const utf8 = await caught(client.search('bad-utf8'));
    expect(utf8).toBeInstanceOf(KgResponseError);
    expect((utf8 as Error).message).toMatch(/UTF-8/);
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = await startFaultServer();
    await closed.close();
    const offline = createKgClient({ baseUrl: closed.url, retries: 1 });
    const error = await caught(offline.search('ok-3'));
    expect(error).toBeInstanceOf(KgNetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe('searchAll', () => {
  it('walks every page lazily and yields IRIs', async () => {
    const pages = [];
    for await (const page of client.searchAll('ok-25', { pageSize: 10 })) pages.push(page);
    expect(pages.map((page) => [page.offset, page.results.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    const iris = [];
    for await (const iri of client.searchAll('ok-25', { pageSize: 10 }).iris()) iris.push(iri);
    expect(iris).toHaveLength(25);
    expect(new Set(iris).size).toBe(25);
    expect(iris[24]).toBe('https://ex.org/ok-25/24');
  });

  it('stops at maxResults, at hasNextPage false, and on an empty page', async () => {
    const capped = [];
    for await (const iri of client.searchAll('ok-250', { maxResults: 120 }).iris())
      capped.push(iri);
    expect(capped).toHaveLength(120);
    expect(new URL(server.lastUrl()).searchParams.get('limit')).toBe('20');

    const once = [];
    for await (const page of client.searchAll('no-next')) once.push(page);
    expect(once).toHaveLength(1);
    expect(server.count('no-next')).toBe(1);
    const untilEmpty = [];
    for await (const iri of client.searchAll('empty-page', { pageSize: 1 }).iris())
      untilEmpty.push(iri);
    expect(untilEmpty).toEqual(['https://ex.org/a']);
  });

  it('yields each IRI once when the ranking shifts between pages', async () => {
    const iris = [];
    for await (const iri of client.searchAll('shifting', { pageSize: 2 }).iris()) iris.push(iri);
    expect(iris).toEqual(['https://ex.org/a', 'https://ex.org/b', 'https://ex.org/c']);
  });

  it('refuses a bad page size or term at once', () => {
    expect(() => client.searchAll('ok-3', { pageSize: 500 })).toThrow(/pageSize/);
    expect(() => client.searchAll('')).toThrow(/term/);
  });
});

describe('sparql', () => {
  it('POSTs the query as application/sparql-query and returns typed, normalised bindings', async () => {
    const results = await client.sparql<'s' | 'n' | 'label'>('SELECT * WHERE { ?s ?p ?o }');
    expect(server.lastHeaders()).toMatchObject({
      'content-type': 'application/sparql-query',
      accept: 'application/sparql-results+json',
      authorization: 'Bearer secret-key',
    });
    expect(isSelectResults(results)).toBe(true);
    if (!isSelectResults(results)) return;
    expect(results.head.vars).toEqual(['s', 'n', 'label']);
    expect(results.results.bindings[0]?.n).toEqual({
      type: 'literal',
      value: '7',
      datatype: 'http://www.w3.org/2001/XMLSchema#integer',
    });
    expect(results.results.bindings[1]).toEqual({ s: { type: 'bnode', value: 'b0' } });
  });

  it('select and ask check the kind of answer', async () => {
    expect(await client.ask('# ask\nASK { ?s ?p ?o }')).toBe(true);
    await expect(client.select('# ask\nASK { ?s ?p ?o }')).rejects.toBeInstanceOf(KgResponseError);
    await expect(client.ask('SELECT * { ?s ?p ?o }')).rejects.toBeInstanceOf(KgResponseError);
  });

  it('rejects a binding of a variable the head does not declare', async () => {
    const error = await caught(client.sparql('# unknown-var\nSELECT ?s {}'));
    expect(error).toBeInstanceOf(KgResponseError);
    expect((error as KgResponseError).issues[0]).toMatchObject({
      path: '$.results.bindings[0].x',
      message: 'variable "x" is not in head.vars',
    });
  });

  it('retries 503 but not 500 or 502 (a failed or too slow query is not repeated)', async () => {
    await client.sparql('# 503-once\nSELECT * {}');
    expect(server.count('sparql:503-once')).toBe(2);
    for (const status of ['500', '502']) {
      const error = await caught(client.sparql(`# ${status}\nSELECT * {}`));
      expect(error).toMatchObject({ code: 'problem', status: Number(status) });
      expect(server.count(`sparql:${status}`)).toBe(1);
    }
  });

  it('does not retry a query answered 503 without Retry-After (the server timed it out)', async () => {
    const error = await caught(client.sparql('# 503-bare\nSELECT * {}'));
    expect(error).toMatchObject({ code: 'problem', status: 503 });
    expect(server.count('sparql:503-bare')).toBe(1);
    // A search (GET) answered the same way is retried: it is cheap and idempotent.
    await caught(client.search('503-bare'));
    expect(server.count('503-bare')).toBe(3);
  });

  it('retries a POST whose connection broke before any answer', async () => {
    await client.sparql('# reset-once\nSELECT * {}');
    expect(server.count('sparql:reset-once')).toBe(2);
  });

  it('refuses an empty query', async () => {
    await expect(client.sparql('  ')).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('source(id)', () => {
  it('sends search and SPARQL to /passthrough/{id}/v1/…, encoding the id', async () => {
    const source = client.source('thesaurus 1/ä');
    const page = await source.search('ok-2');
    expect(page.results).toHaveLength(2);
    expect(new URL(server.lastUrl()).pathname).toBe(
      '/passthrough/thesaurus%201%2F%C3%A4/v1/search/query',
    );
    await source.sparql('SELECT * {}');
    expect(new URL(server.lastUrl()).pathname).toBe(
      '/passthrough/thesaurus%201%2F%C3%A4/v1/graph/sparql',
    );
  });

  it('refuses ids that are empty or dot segments', () => {
    for (const id of ['', '.', '..']) {
      expect(() => client.source(id)).toThrow(KgClientError);
    }
  });
});

describe('createKgClient', () => {
  it('keeps a path prefix of the base URL', async () => {
    const prefixed = createKgClient({ baseUrl: `${server.url}/kg/` });
    const error = await caught(prefixed.search('ok-1'));
    // The fault server has no /kg prefix: the 404 proves where the request went.
    expect(error).toMatchObject({ status: 404 });
  });

  it('refuses bad options with a message naming them', () => {
    expect(() => createKgClient({ baseUrl: 'ftp://example.org' })).toThrow(/baseUrl/);
    expect(() => createKgClient({ baseUrl: 'not a url' })).toThrow(/baseUrl/);
    expect(() => createKgClient({ baseUrl: server.url, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createKgClient({ baseUrl: server.url, retries: -1 })).toThrow(/retries/);
    expect(() => createKgClient({ baseUrl: server.url, apiKey: '' })).toThrow(/apiKey/);
  });
});
