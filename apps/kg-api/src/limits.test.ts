import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';

describe('size limits', () => {
  let dir: string;
  let api: RunningKgApi;
  let adapter: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-limits-'));
    // An adapter that streams a JSON-LD document without Content-Length, bigger than allowed.
    adapter = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.write(`{"@id":"https://ex.org/x","${SKOS}prefLabel":"`);
      for (let i = 0; i < 20; i++) res.write('x'.repeat(1024));
      res.end('"}');
    });
    api = await startKgApi({
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
      config: {
        sources: [
          {
            id: 'small',
            name: 'small',
            baseUrl: adapter.url,
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
        ],
        ingestion: { maxUploadBytes: 4096 },
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await adapter?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an upload above ingestion.maxUploadBytes with 413', async () => {
    const body = Array.from(
      { length: 200 },
      (_, i) => `<https://ex.org/c${i}> <${SKOS}prefLabel> "label ${i}" .`,
    ).join('\n');
    const response = await fetch(`${api.url}/v1/sources/small/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
      body,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('refuses a pulled document above the limit, even without Content-Length', async () => {
    const response = await fetch(`${api.url}/v1/sources/small/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRITER}` },
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/more than 4096 bytes/);
  });

  it('refuses a SPARQL body above 1 MiB with 413', async () => {
    const response = await fetch(`${api.url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: `SELECT * WHERE { ?s ?p ?o } # ${'x'.repeat(1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
  });
});
