import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateMarketplace } from './__fixtures__/marketplace-corpus';
import type { EmbeddingStore } from './embedding-store';
import { createAzureOpenAIProvider } from './http-embedding-provider';
import { MarketplaceSearch } from './marketplace-search';
import { type FakeEmbeddingsApi, startFakeEmbeddingsApi } from './node/embeddings-api.testkit';
import { openPostgresEmbeddingStore } from './node/postgres-embedding-store';

// Two governance-api processes on one PostgreSQL: two stores (two pools), two searches.
const KEY = 'shared-store-key-0123456789abcdef01234';
const available = await postgresAvailable();
const { schema, drop } = randomSchema('dcg_emb');
const instances = generateMarketplace({ environment: 'production', count: 48 });
let api: FakeEmbeddingsApi;
const opened: Array<MarketplaceSearch | EmbeddingStore> = [];

beforeAll(async () => {
  api = await startFakeEmbeddingsApi({
    apiKey: KEY,
    deployments: { small: 'text-embedding-3-small' },
  });
});
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});
afterAll(async () => {
  await api.close();
  if (available) await drop();
});

async function startProcess(options: { jobLeaseMs?: number } = {}) {
  const store = await openPostgresEmbeddingStore({ connectionString: TEST_DATABASE_URL, schema });
  opened.push(store);
  const search = new MarketplaceSearch({
    store,
    provider: createAzureOpenAIProvider({
      endpoint: api.url,
      instanceName: 'shared',
      deploymentName: 'small',
      apiVersion: '2024-10-21',
      apiKey: KEY,
      model: 'text-embedding-3-small',
      dimensions: 64,
      maxRetries: 0,
    }),
    source: { listInstances: async () => instances },
    batchSize: 4,
    ...(options.jobLeaseMs === undefined ? {} : { jobLeaseMs: options.jobLeaseMs }),
  });
  opened.push(search);
  await search.start();
  await search.idle();
  return search;
}

describe.skipIf(!available)('MarketplaceSearch: processes sharing one PostgreSQL', () => {
  it('runs one createEmbeddings job per environment: the second process reports the running one', async () => {
    const [a, b] = await Promise.all([startProcess(), startProcess()]);
    // Slow the provider so that the job is still running when the second request comes.
    for (let i = 0; i < 12; i++) api.fail({ status: 200, delayMs: 40, passThrough: true });
    const [fromA, fromB] = await Promise.all([
      a.createEmbeddings('production'),
      b.createEmbeddings('production'),
    ]);
    expect(fromB.id).toBe(fromA.id);
    expect(fromA).toMatchObject({ status: 'running', total: 48 });
    // One job, which both report (the one that does not run it reads it from the database).
    const statuses = await Promise.all([a.status('production'), b.status('production')]);
    for (const st of statuses) expect(st.runningJobs.map((j) => j.id)).toEqual([fromA.id]);
    await Promise.all([a.idle(), b.idle()]);
    const finished = await b.getJob(fromA.id);
    expect(finished).toMatchObject({ status: 'completed', done: 48, failed: 0 });
    // Free again once it finished: a new request starts a new job.
    const next = await b.createEmbeddings('production');
    expect(next.id).not.toBe(fromA.id);
    await b.idle();
  });

  it('takes over the job of a process that stopped renewing its lease', async () => {
    const a = await startProcess({ jobLeaseMs: 300 });
    for (let i = 0; i < 6; i++) api.fail({ status: 200, delayMs: 100, passThrough: true });
    const job = await a.createEmbeddings('production');
    // A stop without finishing (as kill -9 would): the lease is left to expire.
    await a.close();
    const interrupted = await a.getJob(job.id);
    expect(interrupted?.status).toBe('running');
    expect(interrupted?.done).toBeLessThan(48);

    const b = await startProcess({ jobLeaseMs: 300 });
    let resumed = await b.getJob(job.id);
    for (let i = 0; i < 100 && resumed?.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      resumed = await b.getJob(job.id);
    }
    expect(resumed).toMatchObject({ status: 'completed', total: 48, done: 48, resumed: 1 });
  });
});
