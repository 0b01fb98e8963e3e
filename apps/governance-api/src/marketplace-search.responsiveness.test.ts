import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger } from '@dcg/http-kit';
import { generateMarketplace } from '@dcg/marketplace-search/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

// The local embedder's work (about 90 ms of CPU per instance) runs on a worker thread: requests
// are answered while a rebuild runs, not after it.
const COUNT = 48;
const dir = mkdtempSync(join(tmpdir(), 'gov-search-responsive-'));
const instances = generateMarketplace({ environment: 'production', count: COUNT });
let api: RunningGovernanceApi;

beforeAll(async () => {
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const store = await openSqliteStore({ file: join(dataDir, 'governance.db') });
  for (const instance of instances) await store.putInstance({ ...instance, planId: 'seed' });
  await store.close();
  api = await startGovernanceApi({
    config: {
      ...testConfig,
      embeddingsSearch: { embeddingsModel: { provider: 'local' } },
    } as never,
    dataDir,
    env: {},
    logger: createLogger('test', { level: 'warn', write: () => undefined }),
  });
  await api.marketplaceSearch.idle(); // the start-up embedding of every instance
}, 300_000);
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

const jobOf = async (id: string) =>
  (
    await request(`${api.url}/marketplace/embeddingsSearch/jobs/${id}`, { key: KEYS.reader })
  ).json();

describe('governance-api with the local embedder: a rebuild never stalls requests', () => {
  it('answers /health and a search while createEmbeddings runs, before it ends', async () => {
    const created = await request(`${api.url}/marketplace/embeddingsSearch/createEmbeddings`, {
      key: KEYS.admin,
      body: { environment: 'production' },
    });
    expect(created.status).toBe(202);
    const job = await created.json();
    expect(job).toMatchObject({ status: 'running', total: COUNT, done: 0 });

    // Health checks answered while the job's first batch (32 instances, seconds of model work)
    // is being embedded: on the event loop, none could be until a whole model call ended.
    let answered = 0;
    while ((await api.marketplaceSearch.getJob(job.id))?.done === 0 && answered < 50) {
      const health = await fetch(`${api.url}/health`);
      expect(health.status).toBe(200);
      answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(5);
    const search = await fetch(
      `${api.url}/v1/marketplace/search?${new URLSearchParams({ q: 'customer invoices', environment: 'production' })}`,
    );
    expect(search.status).toBe(200);
    expect((await search.json()).hits.length).toBeGreaterThan(0);
    // Both answered while the rebuild still had work left.
    const during = await jobOf(job.id);
    expect(during.status).toBe('running');
    expect(during.done).toBeLessThan(COUNT);

    await api.marketplaceSearch.idle();
    expect(await jobOf(job.id)).toMatchObject({ status: 'completed', done: COUNT, failed: 0 });
  }, 300_000);
});
