import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GovernanceStore } from '@dcg/governance';
import { openPostgresStore } from '@dcg/governance/postgres';
import { openSqliteStore } from '@dcg/governance/sqlite';
import {
  type FakeEmbeddingsApi,
  generateMarketplace,
  startFakeEmbeddingsApi,
} from '@dcg/marketplace-search/testing';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApp } from './__fixtures__/spawn-app.testkit';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';

const TOKEN = 'embedder-token-kill-0123456789abcdef';
const COUNT = 200;

const pgAvailable = await postgresAvailable();

describe.each([
  ['sqlite', true],
  ['postgres', pgAvailable],
] as const)('marketplace embeddings on %s: kill -9 during a rebuild', (storage, available) => {
  const pg = randomSchema();
  const dir = mkdtempSync(join(tmpdir(), 'gov-search-kill-'));
  const dataDir = join(dir, 'data');
  const instances = generateMarketplace({ environment: 'production', count: COUNT });
  let fake: FakeEmbeddingsApi;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    if (!available) return;
    // Slow answers make the rebuild last long enough to be interrupted.
    fake = await startFakeEmbeddingsApi({
      apiKey: TOKEN,
      deployments: { small: 'text-embedding-3-small' },
      delayMs: 150,
    });
    mkdirSync(dataDir, { recursive: true });
    const store: GovernanceStore =
      storage === 'postgres'
        ? await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema: pg.schema })
        : await openSqliteStore({ file: join(dataDir, 'governance.db') });
    for (const instance of instances) await store.putInstance({ ...instance, planId: 'seed' });
    await store.close();
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        auth: testConfig.auth,
        ...(storage === 'postgres'
          ? { storage: { postgres: { url: TEST_DATABASE_URL, schema: pg.schema } } }
          : {}),
        embeddingsSearch: {
          // The killed process's job lease expires soon, so the restart takes the job over.
          jobLeaseMs: 1000,
          embeddingsModel: {
            provider: 'azure_openai',
            apiVersion: '2024-10-21',
            instanceName: 'kill-test',
            deploymentName: 'small',
            endpoint: fake.url,
            model: 'text-embedding-3-small',
            dimensions: 64,
            batchSize: 16,
          },
        },
      }),
    );
    env = { DCG_CONFIG: configFile, DCG_DATA_DIR: dataDir, EMBEDDERENGINE_SERVICE_TOKEN: TOKEN };
  });
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fake?.close();
    if (storage === 'postgres' && available) await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!available)(
    'resumes the createEmbeddings job after a restart, and no instance leaves search',
    async () => {
      const first = await spawnApp(env);
      children.push(first.child);
      const created = await request(`${first.url}/marketplace/embeddingsSearch/createEmbeddings`, {
        key: KEYS.admin,
        body: { environment: 'production' },
      });
      expect(created.status).toBe(202);
      const job = await created.json();
      expect(job.total).toBe(COUNT);
      // Kill it once part of the job is done.
      let progress = job;
      for (let i = 0; i < 400 && progress.done < 32; i++) {
        await new Promise((r) => setTimeout(r, 25));
        progress = await (
          await request(`${first.url}/marketplace/embeddingsSearch/jobs/${job.id}`, {
            key: KEYS.reader,
          })
        ).json();
      }
      expect(progress.status).toBe('running');
      expect(progress.done).toBeGreaterThanOrEqual(32);
      expect(progress.done).toBeLessThan(COUNT);
      first.child.kill('SIGKILL');
      await first.exited();

      const second = await spawnApp(env);
      children.push(second.child);
      // Every instance is found at once (by its URN), embedded or not.
      for (const instance of instances.filter((_, i) => i % 10 === 0)) {
        const res = await request(
          `${second.url}/v1/marketplace/search?${new URLSearchParams({ q: instance.systemId, environment: 'production', limit: '1' })}`,
        );
        expect((await res.json()).hits[0]?.systemId).toBe(instance.systemId);
      }
      let resumed = progress;
      for (let i = 0; i < 600 && resumed.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        resumed = await (
          await request(`${second.url}/marketplace/embeddingsSearch/jobs/${job.id}`, {
            key: KEYS.reader,
          })
        ).json();
      }
      expect(resumed).toMatchObject({
        id: job.id,
        status: 'completed',
        total: COUNT,
        done: COUNT,
        failed: 0,
        resumed: 1,
      });
      expect(second.output()).toContain('embedding job resumed after a stop');
      const status = await (
        await request(`${second.url}/marketplace/embeddingsSearch/status?environment=production`)
      ).json();
      expect(status).toMatchObject({ instances: COUNT, embedded: COUNT, pending: 0 });
      const result = await (
        await request(
          `${second.url}/v1/marketplace/search?${new URLSearchParams({ q: 'invoices', environment: 'production' })}`,
        )
      ).json();
      expect(result.mode).toBe('hybrid');
      second.child.kill('SIGTERM');
      await second.exited();
    },
  );
});
