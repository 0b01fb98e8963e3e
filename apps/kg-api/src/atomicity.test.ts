import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, startTestServer } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';
const logger = createLogger('kg-api-test', { level: 'silent' });

const graph = (n: number, word: string) =>
  Array.from(
    { length: n },
    (_, i) => `<https://ex.org/${word}${i}> <${SKOS}prefLabel> "${word} ${i}" .`,
  ).join('\n');

describe('graph replacement under load', () => {
  let dir: string;
  let api: RunningKgApi;
  let adapter: Awaited<ReturnType<typeof startTestServer>>;
  let pulls = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-atomic-'));
    adapter = await startTestServer((_req, res) => {
      pulls++;
      res.writeHead(200, { 'content-type': 'application/ld+json' });
      res.end(
        JSON.stringify({ '@id': `https://ex.org/pulled`, [`${SKOS}prefLabel`]: `pulled ${pulls}` }),
      );
    });
    api = await startKgApi({
      dataDir: dir,
      logger,
      config: {
        sources: [
          {
            id: 'big',
            name: 'big',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
          {
            id: 'yearly',
            name: 'yearly',
            baseUrl: adapter.url,
            modes: {
              ingestion: { enabled: true, schedule: '0 0 1 1 *' },
              passthrough: { enabled: false },
            },
          },
          {
            id: 'scheduled',
            name: 'scheduled',
            baseUrl: adapter.url,
            modes: {
              ingestion: { enabled: true, schedule: '* * * * * *' },
              passthrough: { enabled: false },
            },
          },
        ],
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await adapter?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const put = (body: string) =>
    fetch(`${api.url}/v1/sources/big/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
      body,
    });

  it('lets readers see the old graph or the new one, never a mix', async () => {
    expect((await put(graph(5_000, 'alpha'))).status).toBe(200);
    const seen = new Set<string>();
    let done = false;
    const replacing = put(`${graph(3_000, 'alpha')}\n${graph(3_000, 'beta')}`).finally(() => {
      done = true;
    });
    while (!done) {
      const [a, b] = await Promise.all(
        ['alpha', 'beta'].map(async (term) => {
          const response = await fetch(`${api.url}/v1/search/query?term=${term}&limit=1`);
          return ((await response.json()) as { totalResults: number }).totalResults;
        }),
      );
      seen.add(`${a}/${b}`);
    }
    expect((await replacing).status).toBe(200);
    const after = await fetch(`${api.url}/v1/search/query?term=alpha&limit=1`);
    expect(((await after.json()) as { totalResults: number }).totalResults).toBe(3_000);
    // Two requests are not one snapshot, so a pair can straddle the swap; each count alone is whole.
    for (const pair of seen) {
      const [a, b] = pair.split('/').map(Number);
      expect([5_000, 3_000]).toContain(a);
      expect([0, 3_000]).toContain(b);
    }
  });

  it('pulls a scheduled source with no graph at start, without waiting for its schedule', async () => {
    const deadline = Date.now() + 20_000;
    let triples = 0;
    while (triples === 0 && Date.now() < deadline) {
      const info = await fetch(`${api.url}/v1/sources/yearly/graph`);
      triples = ((await info.json()) as { triples: number }).triples;
      if (triples === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(triples).toBe(1);
  });

  it('pulls scheduled sources on their cron schedule', async () => {
    const deadline = Date.now() + 20_000;
    const before = pulls;
    while (pulls < before + 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(pulls).toBeGreaterThanOrEqual(before + 2);
    const response = await fetch(`${api.url}/v1/search/query?term=pulled`);
    expect(((await response.json()) as { results: string[] }).results).toEqual([
      'https://ex.org/pulled',
    ]);
  });
});
