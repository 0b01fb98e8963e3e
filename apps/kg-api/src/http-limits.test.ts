import { connect } from 'node:net';
import { ConfigError, createLogger } from '@dcg/http-kit';
import { msUntilIdleSocketClosed, startFailure, temporaryDirs } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningKgApi, startKgApi } from './server';

// Issue 9, items 7 and 20–23 as kg-api answers them on a real socket.

const logger = createLogger('kg-limits-test', { level: 'silent' });
const WRITER = 'writer-key-for-limits-0123456789';
const READER = 'reader-key-for-limits-0123456789';
const dirs = temporaryDirs('kg-limits-');
const tempDir = dirs.make;
afterAll(() => dirs.removeAll());

const sources = [
  {
    id: 'local',
    name: 'Local',
    modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
  },
];
const apiKeys = [
  { name: 'ci', key: WRITER, role: 'writer' as const },
  { name: 'viewer', key: READER, role: 'reader' as const },
];

async function statuses(count: number, send: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await send();
    await response.arrayBuffer();
    out.push(response.status);
  }
  return out;
}

describe('kg-api limits and headers', () => {
  let api: RunningKgApi;
  beforeAll(async () => {
    api = await startKgApi({
      dataDir: tempDir(),
      logger,
      config: {
        sources,
        auth: { apiKeys },
        rateLimit: {
          anonymous: { requestsPerSecond: 1, burst: 10 },
          authenticated: { requestsPerSecond: 1, burst: 15 },
        },
        server: { headersTimeoutMs: 500 },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('sends security headers on JSON, problems and the API reference', async () => {
    for (const path of ['/v1/search/query?term=x', '/v1/nowhere', '/openapi.json', '/ready']) {
      const response = await fetch(`${api.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toContain("default-src 'none'");
    }
    const docs = await fetch(`${api.url}/docs`);
    // The reference is rendered on the server: no script may run, only its hashed stylesheet.
    expect(docs.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(docs.headers.get('content-security-policy')).not.toContain('script-src');
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('limits anonymous reads per client address (429 + Retry-After); a key has its own bucket', async () => {
    const sparql = () =>
      fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: 'SELECT * WHERE { ?s ?p ?o } LIMIT 1',
      });
    const anonymous = await statuses(20, sparql);
    expect(anonymous.filter((s) => s === 200).length).toBeLessThanOrEqual(12);
    expect(anonymous.slice(-5)).toEqual([429, 429, 429, 429, 429]);
    const refused = await sparql();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Authenticated reads count against the key, not against the address.
    const keyed = await statuses(5, () =>
      fetch(`${api.url}/v1/search/query?term=x`, {
        headers: { authorization: `Bearer ${READER}` },
      }),
    );
    expect(keyed).toEqual([200, 200, 200, 200, 200]);
    // The probes are never limited.
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
  });

  it('disconnects a client that sends nothing (server.headersTimeoutMs)', async () => {
    expect(await msUntilIdleSocketClosed(api.url)).toBeLessThan(3_000);
  });

  it('answers HEAD with oversized headers 431 with no body, GET with its problem (issue 21)', async () => {
    const answer = (method: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk;
        });
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          `${method} /v1/graph/store?graph=urn:dcg:source:local HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
        );
      });
    const head = await answer('HEAD');
    expect(head).toMatch(/^HTTP\/1.1 431 /);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    expect(await answer('GET')).toMatch(/^HTTP\/1.1 431 [\s\S]*\r\n\r\n\{"type":"about:blank"/);
  });
});

describe('kg-api failed authentications', () => {
  it('locks out a client guessing writer keys, not the key that works from there', async () => {
    const api = await startKgApi({
      dataDir: tempDir(),
      logger,
      config: {
        sources,
        auth: { apiKeys },
        rateLimit: { failedAuth: { requestsPerSecond: 0.01, burst: 3 } },
      },
    });
    try {
      const put = (key: string) =>
        fetch(`${api.url}/v1/sources/local/graph`, {
          method: 'PUT',
          headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${key}` },
          body: '<https://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "a" .',
        });
      expect((await put(WRITER)).status).toBe(200);
      const guesses = await statuses(8, () => put('a-guessed-key-0123456789'));
      expect(guesses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      expect((await put(WRITER)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('kg-api in production', () => {
  it('has no development key: without configured keys it refuses to start, saying how to configure them', async () => {
    const failure = await startFailure(
      startKgApi({
        dataDir: tempDir(),
        logger,
        config: { sources },
        env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' },
      }),
    );
    expect(ConfigError.isInstance(failure)).toBe(true);
    expect((failure as ConfigError).message).toMatch(/auth\.apiKeys: no API key is configured/);
    expect((failure as ConfigError).message).toMatch(/role: writer/);
  });

  it('starts with configured keys and makes no development key', async () => {
    const api = await startKgApi({
      dataDir: tempDir(),
      logger,
      config: { sources, auth: { apiKeys } },
      env: { NODE_ENV: 'production' },
    });
    expect(api.developmentKey).toBeUndefined();
    await api.close();
  });
});
