import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateSubmission } from '@dcg/contract-schema';
import { guardedContracts } from '@dcg/guardian-sdk';
import { openFileContractRegistry } from '@dcg/guardian-sdk/node';
import { TEST_DATABASE_URL as DATABASE_URL, randomSchema } from '@dcg/testing-postgres';
import { runToExit, spawnService } from '@dcg/testing-process';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `main.ts --once`, the CI mode: checks what the registry holds once and exits 0 / 1 / 2.

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'dcg-once-'));
const { schema } = randomSchema('dcg_once');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
let server: ReturnType<typeof serve>;
let governanceUrl = '';
let received = 0;

beforeAll(async () => {
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(`CREATE TABLE ${schema}.orders (id text NOT NULL, amount numeric NOT NULL)`);
  await pool.query(`INSERT INTO ${schema}.orders VALUES ('a', 1), ('b', 2)`);
  const system = {
    id: 'urn:dmb:dp:a:b:0',
    kind: 'dataproduct',
    components: [
      {
        id: 'urn:dmb:cmp:a:b:0:port',
        __dataContractEnabled: true,
        dataContract: {
          schema: [
            { name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' },
            { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
          ],
          endpoint: `${schema}.orders`,
        },
      },
      {
        id: 'urn:dmb:cmp:a:b:0:g',
        __dataContractGuardianSpec: { guards: [{ dataContractId: 'urn:dmb:cmp:a:b:0:port' }] },
      },
    ],
  };
  const found = guardedContracts(system, system.components[1]!);
  if (!found.success) throw new Error(JSON.stringify(found.issues));
  openFileContractRegistry(join(dir, 'contracts.json')).provisioned({
    operation: 'provision',
    policyId: 'p1',
    environment: 'ci',
    system,
    guardian: system.components[1]!,
    contracts: found.data,
    guardedContractIds: ['urn:dmb:cmp:a:b:0:port'],
    removeData: false,
    request: { descriptorKind: 'COMPONENT_DESCRIPTOR', descriptor: '', removeData: false },
  });
  const app = new Hono().post(
    '/v1/computational-governance/policies/p1/evaluation-results',
    async (c) => {
      if (c.req.header('authorization') !== 'Bearer ci-key')
        return c.json({ title: 'Unauthorized' }, 401);
      const body = await c.req.json();
      const ok = validateSubmission(body).success;
      if (ok) received++;
      return c.json({}, ok ? 201 : 400);
    },
  );
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      governanceUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

async function once(key = 'ci-key', databaseUrl = DATABASE_URL): Promise<number | null> {
  const { code } = await runToExit({
    appDir,
    args: ['--once'],
    env: {
      DCG_DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      GOVERNANCE_URL: governanceUrl,
      DCG_API_KEY: key,
      PORT: '1',
    },
  });
  return code;
}

describe('postgres-guardian --once', () => {
  it('exits 0 when compliant, 1 when violated, 2 when the result cannot be sent', async () => {
    expect(await once()).toBe(0);
    expect(received).toBe(1);
    await pool.query(`INSERT INTO ${schema}.orders VALUES ('a', 3)`);
    expect(await once()).toBe(1);
    expect(received).toBe(2);
    expect(await once('wrong-key')).toBe(2);
    expect(received).toBe(2);
  }, 90_000);

  it('PostgreSQL unreachable: --once sends nothing, says why on stderr and exits 2', async () => {
    const before = received;
    const { code, stderr } = await runToExit({
      appDir,
      args: ['--once'],
      env: {
        DCG_DATA_DIR: dir,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
        GOVERNANCE_URL: governanceUrl,
        DCG_API_KEY: 'ci-key',
        LOG_LEVEL: 'silent',
      },
    });
    expect(code).toBe(2);
    expect(received).toBe(before);
    expect(stderr).toMatch(
      /^could not run: urn:dmb:cmp:a:b:0:port \(ci\): the check postgres_contract could not run: .*ECONNREFUSED.*; nothing was sent$/m,
    );
  });

  it('scheduled with PostgreSQL unreachable: nothing sent, counted as could_not_run, retried each interval; /ready 503, /health 200', async () => {
    const before = received;
    const guardian = await spawnService({
      appDir,
      env: {
        DCG_DATA_DIR: dir,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
        GOVERNANCE_URL: governanceUrl,
        DCG_API_KEY: 'ci-key',
        CHECK_INTERVAL: '1s',
        METRICS_REQUIRE_KEY: '0',
        LOG_LEVEL: 'warn',
      },
    });
    try {
      const { url } = guardian;
      const couldNotRun = async () => {
        const text = await fetch(`${url}/metrics`).then((r) => r.text());
        return Number(
          /^guardian_runs_total\{outcome="could_not_run"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0,
        );
      };
      const deadline = Date.now() + 30_000;
      let count = 0;
      while (Date.now() < deadline && count < 2) {
        count = await couldNotRun().catch(() => 0);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(count).toBeGreaterThanOrEqual(2);
      expect(received).toBe(before);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: string }).error).toMatch(/ECONNREFUSED/);
      // The log lines are JSON on stdout.
      const line = guardian
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'could not run');
      expect(line).toMatchObject({
        level: 'warn',
        resourceId: 'urn:dmb:cmp:a:b:0:port',
        environment: 'ci',
        stage: 'check',
      });
      expect(String(line?.reason)).toMatch(/ECONNREFUSED/);
    } finally {
      await guardian.stop();
    }
    expect(await guardian.exited()).toBe(0);
  }, 60_000);

  it('exits 2 with a message for a bad configuration', async () => {
    const { code, stderr } = await runToExit({
      appDir,
      args: ['--once'],
      env: { DCG_DATA_DIR: dir, CHECK_INTERVAL: 'sometimes' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/CHECK_INTERVAL: cannot read the duration "sometimes"/);
  });

  it('exits 2 naming LOG_LEVEL when it is not a known level', async () => {
    const { code, stderr } = await runToExit({
      appDir,
      args: ['--once'],
      env: { DCG_DATA_DIR: dir, LOG_LEVEL: 'verbose' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/LOG_LEVEL: LOG_LEVEL must be one of debug, info, warn, error, silent/);
  });
});
