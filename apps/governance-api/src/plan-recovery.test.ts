import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHangingTechAdapter } from './__fixtures__/hanging-tech-adapter';
import { spawnApp } from './__fixtures__/spawn-app.testkit';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';

const SYSTEM = 'urn:dmb:dp:kill:orders:0';
const STORAGE = 'urn:dmb:cmp:kill:orders:0:storage';
const PORT = 'urn:dmb:cmp:kill:orders:0:port';
const LAST = 'urn:dmb:cmp:kill:orders:0:last';

describe('a deploy killed mid-plan (kill -9) reports what it left provisioned after restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'governance-plan-kill-'));
  const configFile = join(dir, 'config.json');
  // The default lease (30 s): a single instance marks what it left running at start-up, at once.
  writeFileSync(configFile, JSON.stringify(testConfig));
  const env = { DCG_DATA_DIR: join(dir, 'data'), DCG_CONFIG: configFile };
  const children: ChildProcess[] = [];
  let closeAdapter: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await closeAdapter?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the completed components as remaining and the one under way as uncertain', async () => {
    const adapter = await startHangingTechAdapter([PORT]);
    closeAdapter = adapter.close;
    const first = await spawnApp(env);
    children.push(first.child);
    const template = await request(`${first.url}/v1/infrastructure-templates`, {
      key: KEYS.admin,
      body: { id: 'urn:dmb:itm:kill:1', name: 'Kill', url: adapter.url },
    });
    expect(template.status).toBe(201);
    const component = (id: string) => ({
      id,
      kind: 'workload',
      infrastructureTemplateId: 'urn:dmb:itm:kill:1',
    });
    const deploy = await request(`${first.url}/v1/provisioning/deploy`, {
      key: KEYS.coordinator,
      body: {
        environment: 'production',
        descriptor: {
          id: SYSTEM,
          kind: 'dataproduct',
          components: [component(STORAGE), component(PORT), component(LAST)],
        },
      },
    });
    expect(deploy.status).toBe(202);
    const { plan: location } = await deploy.json();
    // Wait until the storage is provisioned and the port's provisioning is under way.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const plan = await (await request(`${first.url}${location}`, { key: KEYS.reader })).json();
      const states = plan.tasks.map((t: { status: string }) => t.status);
      if (states[0] === 'completed' && states[1] === 'running') break;
      if (Date.now() > deadline) throw new Error(`the plan never reached the port: ${states}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(adapter.calls).toEqual([
      `validate ${STORAGE}`,
      `validate ${PORT}`,
      `validate ${LAST}`,
      `provision ${STORAGE}`,
      `provision ${PORT}`,
    ]);
    first.child.kill('SIGKILL');
    await first.exited();

    const second = await spawnApp(env);
    children.push(second.child);
    // Failed on the first read after the restart: not after the killed process's lease lapsed.
    const plan = await (await request(`${second.url}${location}`, { key: KEYS.reader })).json();
    expect(plan.status).toBe('failed');
    expect(plan.tasks.map((t: { status: string }) => t.status)).toEqual([
      'completed',
      'failed',
      'skipped',
    ]);
    expect(plan.rollback).toEqual({ rolledBack: [], remaining: [STORAGE], uncertain: [PORT] });
    expect(plan.errors.at(-1)).toBe(
      `still provisioned: ${STORAGE}; possibly provisioned (its call ended without a COMPLETED or FAILED status, or the service stopped during it): ${PORT}`,
    );
    // Nothing was deployed as far as the marketplace is concerned.
    const instance = await request(
      `${second.url}/v1/marketplace/instances/${encodeURIComponent(SYSTEM)}?environment=production`,
    );
    expect(instance.status).toBe(404);
    second.child.kill('SIGTERM');
    await second.exited();
  }, 90_000);
});
