import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { type SpawnedApp, spawnApp } from './__fixtures__/spawn-app.testkit';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
const dir = mkdtempSync(join(tmpdir(), 'governance-two-'));
const apps: SpawnedApp[] = [];
let closeAdapter: (() => Promise<void>) | undefined;
afterAll(async () => {
  for (const app of apps) if (app.child.exitCode === null) app.child.kill('SIGKILL');
  await Promise.all(apps.map((app) => app.exited()));
  await closeAdapter?.();
  if (available) await drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A real tech adapter whose provisioning never finishes: plans stay running. */
async function startEndlessAdapter(): Promise<string> {
  const app = new Hono();
  app.post('/v1/validate', (c) => c.json({ valid: true }));
  app.post('/v1/provision', (c) => c.text('token-1', 202));
  app.get('/v1/provision/:token/status', (c) =>
    c.json({ status: 'RUNNING', result: '', logs: [] }),
  );
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  closeAdapter = () => new Promise((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const LEASE_MS = 1500;

describe.skipIf(!available)('two governance-api processes on one PostgreSQL', () => {
  it('recovery touches only the plans of the instance that died', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        ...testConfig,
        storage: { postgres: { schema } },
        provisioning: { pollIntervalMs: 50, pollTimeoutMs: 600_000, leaseMs: LEASE_MS },
      }),
    );
    const env = { DCG_CONFIG: config, DCG_DATA_DIR: dir, DATABASE_URL: TEST_DATABASE_URL };
    const adapterUrl = await startEndlessAdapter();
    const first = await spawnApp(env);
    apps.push(first);
    expect(
      (
        await request(`${first.url}/v1/infrastructure-templates`, {
          key: KEYS.admin,
          body: { id: 'urn:dmb:itm:endless:1', name: 'Endless', url: adapterUrl },
        })
      ).status,
    ).toBe(201);
    const deploy = async (url: string, system: string) => {
      const res = await request(`${url}/v1/provisioning/deploy`, {
        key: KEYS.coordinator,
        body: {
          environment: 'production',
          descriptor: {
            id: `urn:dmb:dp:two:${system}:0`,
            name: system,
            kind: 'dataproduct',
            domain: 'two',
            version: '1.0.0',
            components: [
              {
                id: `urn:dmb:cmp:two:${system}:0:storage`,
                name: 'Storage',
                kind: 'storage',
                infrastructureTemplateId: 'urn:dmb:itm:endless:1',
              },
            ],
          },
        },
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { id: string }).id;
    };
    const statusOf = async (url: string, id: string) =>
      (await (
        await request(`${url}/v1/provisioning/plans/${id}`, { key: KEYS.reader })
      ).json()) as { status: string; errors: string[] };

    const planOfFirst = await deploy(first.url, 'a');
    // A second instance starts on the same schema while the first one's plan runs.
    const second = await spawnApp(env);
    apps.push(second);
    const planOfSecond = await deploy(second.url, 'b');
    // Several lease periods later, both plans still run: the instances leave each other alone.
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS));
    expect((await statusOf(second.url, planOfFirst)).status).toBe('running');
    expect((await statusOf(first.url, planOfSecond)).status).toBe('running');

    // The first instance dies: once its lease lapses, the second marks its plan failed, only it.
    first.child.kill('SIGKILL');
    await first.exited();
    let recovered = await statusOf(second.url, planOfFirst);
    for (let i = 0; i < 100 && recovered.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = await statusOf(second.url, planOfFirst);
    }
    expect(recovered.status).toBe('failed');
    expect(recovered.errors.join(' ')).toContain('interrupted');
    expect((await statusOf(second.url, planOfSecond)).status).toBe('running');

    // A third instance started now takes nothing from the live second one.
    const third = await spawnApp(env);
    apps.push(third);
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    expect((await statusOf(third.url, planOfSecond)).status).toBe('running');
  }, 90_000);
});
