import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningGovernanceApi, startGovernanceApi } from '@dcg/governance-api';
import { TEST_DATABASE_URL as DATABASE_URL, randomSchema } from '@dcg/testing-postgres';
import { type SpawnedService, spawnService } from '@dcg/testing-process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

// The demo as `pnpm start` runs it: governance-api's demo points its guardian template at this
// guardian, which creates the demo tables and checks them (here in a schema of the test's own).

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = mkdtempSync(join(tmpdir(), 'dcg-demo-'));
const { schema } = randomSchema('dcg_demo');
let api: RunningGovernanceApi | undefined;
let guardian: SpawnedService | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

afterAll(async () => {
  await guardian?.stop();
  await api?.close();
  delete process.env.DCG_DEMO_GUARDIAN_URL;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
  rmSync(root, { recursive: true, force: true });
});

describe('the demo with the reference guardian', () => {
  it('shows orders compliant and invoices violated from real checks, customers unprocessable', async () => {
    process.env.LOG_LEVEL ??= 'warn';
    // Each needs the other's address before it starts, and the guardian listens only once
    // governance-api has written the demo guardian key: both ports are chosen here.
    const port = await freePort();
    const governancePort = await freePort();
    process.env.DCG_DEMO_GUARDIAN_URL = `http://127.0.0.1:${port}`;
    // Assigned as each one starts, so afterAll stops what did start when the other fails.
    const [running] = await Promise.all([
      startGovernanceApi({
        dataDir: join(root, 'governance-api'),
        port: governancePort,
        demo: true,
      }).then((started) => {
        api = started;
        return started;
      }),
      spawnService({
        appDir,
        env: {
          PORT: String(port),
          GOVERNANCE_URL: `http://127.0.0.1:${governancePort}`,
          DATABASE_URL,
          DCG_DATA_DIR: join(root, 'postgres-guardian'),
          DCG_DEMO: '1',
          DCG_DEMO_SCHEMA: schema,
          CHECK_INTERVAL: '1s',
        },
      }).then((started) => {
        guardian = started;
      }),
    ]);
    const url = running.url;
    const status = async (id: string) =>
      (await (
        await fetch(
          `${url}/v1/marketplace/data-contracts/${encodeURIComponent(id)}/compliance?environment=production`,
        )
      ).json()) as {
        status: string;
        policyId: string | null;
        summary: string | null;
      };
    const deadline = Date.now() + 30_000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = await Promise.all(
        ['orders-port', 'invoices-port', 'customers-port'].map(
          async (p) => (await status(`urn:dmb:cmp:finance:orders:0:${p}`)).status,
        ),
      );
      if (states.join() === 'compliant,violated,unprocessable') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // The guardian's log says why when a state never comes.
    expect(states, guardian?.output()).toEqual(['compliant', 'violated', 'unprocessable']);
    const invoices = await status('urn:dmb:cmp:finance:orders:0:invoices-port');
    expect(invoices.summary).toMatch(/12 rows have a null amount|allows nulls/);
    expect((await status('urn:dmb:cmp:finance:orders:0:orders-port')).policyId).toBeTruthy();
  }, 90_000);
});
