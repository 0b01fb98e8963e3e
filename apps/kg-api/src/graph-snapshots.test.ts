import { watch } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnKgApi } from './__fixtures__/spawn-app';

const WRITER = 'writer-key-0123456789abcdef';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';

const CONFIG = `sources:
  - id: vocab
    name: Vocabulary
    modes:
      ingestion: { enabled: true }
      passthrough: { enabled: false }
auth:
  apiKeys:
    - { name: ci, keyFromEnv: KG_TEST_KEY }
`;

const graph = (n: number, word: string) =>
  Array.from(
    { length: n },
    (_, i) => `<https://ex.org/${word}${i}> <${SKOS}prefLabel> "${word} ${i}"@en .`,
  ).join('\n');

const put = (url: string, body: string) =>
  fetch(`${url}/v1/sources/vocab/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
    body,
  });

const count = async (url: string, word: string) => {
  const response = await fetch(`${url}/v1/search/query?term=${word}&limit=1`);
  return ((await response.json()) as { totalResults: number }).totalResults;
};

const ask = async (url: string, iri: string) => {
  const query = `ASK { <${iri}> <${SKOS}prefLabel> ?label }`;
  const response = await fetch(`${url}/v1/graph/sparql?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/sparql-results+json' },
  });
  return ((await response.json()) as { boolean: boolean }).boolean;
};

const loads = (records: Record<string, unknown>[]) =>
  records.filter((r) => r.msg === 'graph loaded' || r.msg === 'graph snapshot refused');

describe('kg-api graph snapshots, as a process', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-snapshots-'));
    await writeFile(join(dir, 'config.yaml'), CONFIG);
    env = {
      DCG_DATA_DIR: join(dir, 'data'),
      DCG_CONFIG: join(dir, 'config.yaml'),
      KG_TEST_KEY: WRITER,
    };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts from the snapshot without parsing, and a kill -9 while a snapshot is written leaves the previous one in use', async () => {
    const first = await spawnKgApi(env);
    expect((await put(first.url, graph(2_000, 'old'))).status).toBe(200);
    first.child.kill('SIGTERM');
    await first.exited();

    const second = await spawnKgApi(env);
    expect(loads(second.records())).toMatchObject([
      {
        msg: 'graph loaded',
        sourceId: 'vocab',
        triples: 2_000,
        from: 'snapshot',
        reason: 'start-up',
      },
    ]);
    expect(await ask(second.url, 'https://ex.org/old1999')).toBe(true);
    expect(await count(second.url, 'old')).toBe(2_000);

    // A larger graph: killed as soon as its snapshot's temporary file appears.
    const folder = join(env.DCG_DATA_DIR as string, 'graphs');
    await mkdir(folder, { recursive: true });
    let killedWhileWriting = false;
    const watcher = watch(folder, (_event, name) => {
      if (!killedWhileWriting && name && /\.snapshot\..*\.tmp$/.test(name)) {
        killedWhileWriting = true;
        second.child.kill('SIGKILL');
      }
    });
    const status = await put(second.url, graph(100_000, 'new')).then(
      (r) => r.status,
      () => 0,
    );
    await second.exited();
    watcher.close();
    expect(killedWhileWriting).toBe(true);
    expect(status).toBe(0);

    const third = await spawnKgApi(env);
    try {
      expect(loads(third.records())).toMatchObject([
        { msg: 'graph loaded', sourceId: 'vocab', triples: 2_000, from: 'snapshot' },
      ]);
      expect(await count(third.url, 'old')).toBe(2_000);
      expect(await count(third.url, 'new')).toBe(0);
    } finally {
      third.child.kill('SIGTERM');
      await third.exited();
    }
  });

  it('refuses a damaged snapshot with a clear message and starts from the stored triples', async () => {
    const data = join(dir, 'damaged');
    const app = await spawnKgApi({ ...env, DCG_DATA_DIR: data });
    expect((await put(app.url, graph(500, 'kept'))).status).toBe(200);
    app.child.kill('SIGTERM');
    await app.exited();
    await writeFile(
      join(data, 'graphs', 'vocab.snapshot'),
      'not a snapshot, but long enough to hold a header of sixty-four bytes',
    );

    const again = await spawnKgApi({ ...env, DCG_DATA_DIR: data });
    try {
      expect(loads(again.records())).toMatchObject([
        {
          msg: 'graph snapshot refused',
          sourceId: 'vocab',
          reason: expect.stringMatching(/vocab\.snapshot is not a dcg graph snapshot/),
        },
        { msg: 'graph loaded', sourceId: 'vocab', triples: 500, from: 'triples' },
      ]);
      expect(await count(again.url, 'kept')).toBe(500);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited();
    }
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('two kg-api processes on one PostgreSQL', () => {
  const { schema, drop } = randomSchema('kg_snapshots');
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-shared-'));
    await writeFile(
      join(dir, 'config.yaml'),
      `${CONFIG}storage:\n  graphRefreshMs: 300\n  postgres: { schema: ${schema} }\n`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await drop();
  });

  it('serves through one instance what was ingested through the other, within seconds', async () => {
    const start = (name: string) =>
      spawnKgApi({
        DCG_DATA_DIR: join(dir, name),
        DCG_CONFIG: join(dir, 'config.yaml'),
        DATABASE_URL: TEST_DATABASE_URL,
        KG_TEST_KEY: WRITER,
      });
    const [a, b] = await Promise.all([start('a'), start('b')]);
    try {
      const waitFor = async (check: () => Promise<boolean>) => {
        const started = Date.now();
        while (!(await check())) {
          if (Date.now() - started > 10_000) throw new Error('not seen within 10 s');
          await new Promise((r) => setTimeout(r, 50));
        }
        return Date.now() - started;
      };
      expect((await put(a.url, graph(1_000, 'alpha'))).status).toBe(200);
      await waitFor(async () => (await count(b.url, 'alpha')) === 1_000);
      expect(await ask(b.url, 'https://ex.org/alpha999')).toBe(true);
      expect(loads(b.records())).toMatchObject([
        { msg: 'graph loaded', sourceId: 'vocab', triples: 1_000, reason: 'changed elsewhere' },
      ]);

      // And back: a replacement through the second reaches the first.
      expect((await put(b.url, graph(10, 'beta'))).status).toBe(200);
      await waitFor(async () => (await count(a.url, 'beta')) === 10);
      expect(await count(a.url, 'alpha')).toBe(0);
      expect(await ask(a.url, 'https://ex.org/alpha999')).toBe(false);
    } finally {
      for (const app of [a, b]) {
        app.child.kill('SIGTERM');
        await app.exited();
      }
    }
    // A third instance starts from what PostgreSQL holds, with an empty data folder.
    const c = await start('c');
    try {
      expect(await count(c.url, 'beta')).toBe(10);
      expect(loads(c.records())).toMatchObject([
        { msg: 'graph loaded', sourceId: 'vocab', from: 'snapshot', reason: 'start-up' },
      ]);
    } finally {
      c.child.kill('SIGTERM');
      await c.exited();
    }
  });
});
