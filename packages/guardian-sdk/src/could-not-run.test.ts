import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GUARDIAN_KEY,
  serveOnFreePort,
  startTestGovernance,
  type TestGovernance,
} from './__fixtures__/governance-api';
import { ORDERS_PORT, system } from './__fixtures__/systems';
import { ContractRegistry } from './contract-registry';
import { createGuardian, type Guardian } from './create-guardian';
import { testSchema } from './postgres/__fixtures__/test-database';
import { postgresContractCheck } from './postgres/contract-checks';
import type { RunReport } from './run-guardian';

// "Could not run" is not "violated": real PostgreSQL (a lock makes the statement time out; a port
// where nothing listens) and a real governance-api, which must keep the last real verdict.

let governance: TestGovernance;
let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;
// One registry, provisioned through a real deploy; each guardian below reads it.
const registry = new ContractRegistry();
const logs: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];

function guardian(checkPool: pg.Pool, extra: { reports?: RunReport[] } = {}): Guardian {
  return createGuardian({
    checks: [postgresContractCheck({ pool: checkPool, statementTimeoutMs: 300 })],
    governance: { baseUrl: governance.url, apiKey: GUARDIAN_KEY, retries: 0 },
    registry,
    schedule: { intervalMs: 600 },
    jitterMs: 0,
    tickMs: 20,
    hooks: {
      log: (_level, message, fields) => logs.push({ message, fields }),
      onRunEnd: (r) => extra.reports?.push(r),
    },
  });
}

beforeAll(async () => {
  governance = await startTestGovernance();
  ({ schema, pool, drop } = await testSchema());
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(`INSERT INTO ${schema}.orders (order_id, amount) VALUES ('a', 1), ('b', 2)`);
  const adapter = guardian(pool);
  const served = await serveOnFreePort(adapter.fetch);
  try {
    await governance.registerGuardian('urn:dmb:itm:cnr-guardian:1', served.url);
    const descriptor = system({
      contract: {
        schema: [
          { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
          { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
          { name: 'updated_at', dataType: 'timestamp', constraint: 'NOT_NULL' },
        ],
        endpoint: `${schema}.orders`,
      },
    });
    (descriptor.components[2] as Record<string, unknown>).infrastructureTemplateId =
      'urn:dmb:itm:cnr-guardian:1';
    descriptor.components.splice(1, 1);
    const plan = await governance.plan('deploy', { environment: 'production', descriptor });
    expect(plan.status, JSON.stringify(plan.errors)).toBe('completed');
  } finally {
    await served.close();
  }
  expect(registry.list().map((c) => c.environment)).toEqual(['production']);
}, 60_000);

afterAll(async () => {
  await governance?.close();
  await drop();
});

describe('a check that could not run', () => {
  it('a statement timeout or an unreachable database sends nothing: the compliant state stays', async () => {
    const first = guardian(pool);
    const ok = await first.runOnce();
    await first.stop();
    expect(ok.exitCode, JSON.stringify(ok.reports.map((r) => r.reason))).toBe(0);
    expect(await governance.results(ORDERS_PORT)).toMatchObject([{ status: 'compliant' }]);
    logs.length = 0;

    // A lock held elsewhere: the guardian's aggregate query waits past its statement timeout.
    const blocker = await pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE ${schema}.orders IN ACCESS EXCLUSIVE MODE`);
      const timedOut = guardian(pool);
      const summary = await timedOut.runOnce();
      await timedOut.stop();
      expect(summary).toMatchObject({ compliant: 0, violated: 0, couldNotRun: 1, exitCode: 2 });
      expect(summary.reports[0]).toMatchObject({ outcome: 'could_not_run', stage: 'check' });
      expect(summary.reports[0]?.reason).toBe(
        'the check postgres_contract could not run: canceling statement due to statement timeout; nothing was sent',
      );
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }

    const nowhere = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/test' });
    const unreachable = guardian(nowhere);
    const down = await unreachable.runOnce();
    await unreachable.stop();
    await nowhere.end();
    expect(down).toMatchObject({ couldNotRun: 1, exitCode: 2 });
    expect(down.reports[0]?.reason).toMatch(/ECONNREFUSED/);

    // Nothing reached governance-api: one result, still compliant; each reason was logged.
    expect(await governance.results(ORDERS_PORT)).toMatchObject([{ status: 'compliant' }]);
    const couldNot = logs.filter((l) => l.message === 'could not run');
    expect(couldNot).toHaveLength(2);
    expect(couldNot[0]?.fields).toMatchObject({
      resourceId: ORDERS_PORT,
      environment: 'production',
      stage: 'check',
    });
  }, 60_000);

  it('a running guardian tries again at its next interval and then reports', async () => {
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE ${schema}.orders IN ACCESS EXCLUSIVE MODE`);
    const reports: RunReport[] = [];
    const running = guardian(pool, { reports });
    running.start();
    try {
      for (let i = 0; i < 100 && reports.length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(reports.map((r) => r.outcome)).toEqual(['could_not_run']);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    const before = (await governance.results(ORDERS_PORT)).length;
    for (let i = 0; i < 100 && reports.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    await running.stop();
    expect(reports[1]?.outcome).toBe('compliant');
    expect((await governance.results(ORDERS_PORT)).length).toBe(before + 1);
  }, 30_000);
});
