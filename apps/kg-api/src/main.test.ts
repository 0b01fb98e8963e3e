import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKgApiToExit, spawnKgApi } from './__fixtures__/spawn-app';

const WRITER = 'writer-key-0123456789abcdef';

describe('kg-api as a process', () => {
  let dir: string;
  let configPath: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-main-'));
    configPath = join(dir, 'config.yaml');
    await writeFile(
      configPath,
      `sources:
  - id: vocab
    name: Vocabulary
    modes:
      ingestion: { enabled: true }
      passthrough: { enabled: false }
auth:
  apiKeys:
    - { name: ci, keyFromEnv: KG_TEST_KEY }
`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged graph after kill -9', async () => {
    const env = { DCG_DATA_DIR: join(dir, 'data'), DCG_CONFIG: configPath, KG_TEST_KEY: WRITER };
    const first = await spawnKgApi(env);
    const lines = Array.from(
      { length: 2_000 },
      (_, i) =>
        `<https://ex.org/c${i}> <http://www.w3.org/2004/02/skos/core#prefLabel> "Concept ${i}" .`,
    );
    const put = await fetch(`${first.url}/v1/sources/vocab/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
      body: lines.join('\n'),
    });
    expect(put.status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited();

    const second = await spawnKgApi(env);
    try {
      const response = await fetch(`${second.url}/v1/search/query?term=concept%201999`);
      const body = (await response.json()) as { results: string[]; totalResults: number };
      expect(body.results[0]).toBe('https://ex.org/c1999');
      expect(body.totalResults).toBe(2_000);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited();
    }
  });

  it('after kill -9 in the middle of a replacement, has the old graph or the new one, whole', async () => {
    const env = { DCG_DATA_DIR: join(dir, 'midway'), DCG_CONFIG: configPath, KG_TEST_KEY: WRITER };
    const graph = (n: number, word: string) =>
      Array.from(
        { length: n },
        (_, i) =>
          `<https://ex.org/${word}${i}> <http://www.w3.org/2004/02/skos/core#prefLabel> "${word} ${i}" .`,
      ).join('\n');
    const put = (url: string, body: string) =>
      fetch(`${url}/v1/sources/vocab/graph`, {
        method: 'PUT',
        headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
        body,
      });
    for (const delayMs of [50, 400]) {
      const app = await spawnKgApi(env);
      expect((await put(app.url, graph(1_000, 'old'))).status).toBe(200);
      const inFlight = put(app.url, graph(60_000, 'new')).then(
        (r) => r.status,
        () => 0,
      );
      await new Promise((r) => setTimeout(r, delayMs));
      app.child.kill('SIGKILL');
      await app.exited();
      const acknowledged = (await inFlight) === 200;

      const again = await spawnKgApi(env);
      try {
        const count = async (word: string) => {
          const response = await fetch(`${again.url}/v1/search/query?term=${word}&limit=1`);
          return ((await response.json()) as { totalResults: number }).totalResults;
        };
        const [oldCount, newCount] = [await count('old'), await count('new')];
        // Whole old graph or whole new graph; the new one for sure if it was acknowledged.
        expect([`${oldCount}/${newCount}`]).toContainEqual(
          acknowledged ? '0/60000' : expect.stringMatching(/^(1000\/0|0\/60000)$/),
        );
      } finally {
        again.child.kill('SIGKILL');
        await again.exited();
      }
    }
  });

  it('starts with the demo vocabulary when DCG_DEMO=1, and on the embedded defaults the passthrough source demo-loopback', async () => {
    const app = await spawnKgApi({ DCG_DATA_DIR: join(dir, 'demo'), DCG_DEMO: '1' });
    try {
      const response = await fetch(`${app.url}/v1/search/query?term=gdpr`);
      expect(((await response.json()) as { results: string[] }).results[0]).toBe(
        'https://dcg.example.org/vocab/governance/gdpr',
      );
      const passthrough = await fetch(
        `${app.url}/passthrough/demo-loopback/v1/graph/sparql?query=${encodeURIComponent('ASK { <https://dcg.example.org/vocab/governance/gdpr> ?p ?o }')}`,
      );
      expect(await passthrough.json()).toMatchObject({ boolean: true });
    } finally {
      app.child.kill('SIGTERM');
      await app.exited();
    }
  });

  it('adds the demo source but no demo-loopback when DCG_DEMO=1 comes with a configuration file', async () => {
    const app = await spawnKgApi({
      DCG_DATA_DIR: join(dir, 'demo-configured'),
      DCG_DEMO: '1',
      DCG_CONFIG: configPath,
      KG_TEST_KEY: WRITER,
    });
    try {
      const response = await fetch(`${app.url}/v1/sources`);
      const { sources } = (await response.json()) as { sources: { id: string }[] };
      expect(sources.map((s) => s.id)).toEqual(['vocab', 'demo']);
    } finally {
      app.child.kill('SIGTERM');
      await app.exited();
    }
  });

  it('refuses to start on an unknown configuration key, naming it', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'sources: []\nsparql:\n  timeoutMs: 10\n  maxRowz: 5\n');
    const { code, output } = await runKgApiToExit({
      DCG_DATA_DIR: join(dir, 'bad'),
      DCG_CONFIG: bad,
    });
    expect(code).toBe(1);
    expect(output).toMatch(/sparql\.maxRowz/);
  });
});
