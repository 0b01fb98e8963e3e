import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GUARDIAN_KEY,
  serveOnFreePort,
  startTestGovernance,
  type TestGovernance,
} from './__fixtures__/governance-api';
import { ORDERS_PORT, system } from './__fixtures__/systems';
import { createGuardian } from './create-guardian';
import { openFileContractRegistry } from './node/file-contract-registry';
import { testSchema } from './postgres/__fixtures__/test-database';
import { postgresContractCheck } from './postgres/contract-checks';

// Every environment a guardian serves stays monitored: deployed to production and qa through the
// real coordinator, qa undeployed, the guardian restarted from its file registry.

const TEMPLATE = 'urn:dmb:itm:env-guardian:1';
const dir = mkdtempSync(join(tmpdir(), 'dcg-envs-'));
const file = join(dir, 'contracts.json');
let governance: TestGovernance;
let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;

function guardian() {
  return createGuardian({
    checks: [postgresContractCheck({ pool })],
    governance: { baseUrl: governance.url, apiKey: GUARDIAN_KEY, retries: 0 },
    registry: openFileContractRegistry(file),
  });
}

function descriptor(environmentInDescriptor: string) {
  const d = system({
    contract: {
      schema: [
        { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
        { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
      ],
      endpoint: `${schema}.orders`,
    },
  });
  d.environment = environmentInDescriptor;
  (d.components[2] as Record<string, unknown>).infrastructureTemplateId = TEMPLATE;
  d.components.splice(1, 1);
  return d;
}

beforeAll(async () => {
  governance = await startTestGovernance();
  ({ schema, pool, drop } = await testSchema());
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric NOT NULL)`,
  );
  await pool.query(`INSERT INTO ${schema}.orders VALUES ('a', 1), ('b', 2)`);
}, 60_000);

afterAll(async () => {
  await governance?.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a guardian serving two environments', () => {
  it('undeploying qa leaves production monitored, across a restart; each result goes to its environment', async () => {
    const first = guardian();
    const served = await serveOnFreePort(first.fetch);
    try {
      await governance.registerGuardian(TEMPLATE, served.url);
      // The descriptor says production both times: the plan's environment is what counts.
      for (const environment of ['production', 'qa']) {
        const plan = await governance.plan('deploy', {
          environment,
          descriptor: descriptor('production'),
        });
        expect(plan.status, JSON.stringify(plan.errors)).toBe('completed');
      }
      expect(first.registry.list().map((c) => [c.resourceId, c.environment])).toEqual([
        [ORDERS_PORT, 'production'],
        [ORDERS_PORT, 'qa'],
      ]);
      const both = await first.runOnce();
      expect(both.reports.map((r) => [r.environment, r.outcome]).sort()).toEqual([
        ['production', 'compliant'],
        ['qa', 'compliant'],
      ]);
      const undeployed = await governance.plan('undeploy', {
        environment: 'qa',
        systemId: 'urn:dmb:dp:finance:orders:0',
      });
      expect(undeployed.status, JSON.stringify(undeployed.errors)).toBe('completed');
    } finally {
      await first.stop();
      await served.close();
    }

    // A new process: only production is left, and its result goes to production.
    const restarted = guardian();
    expect(restarted.registry.list().map((c) => [c.resourceId, c.environment])).toEqual([
      [ORDERS_PORT, 'production'],
    ]);
    const before = (await governance.results(ORDERS_PORT)).length;
    const summary = await restarted.runOnce();
    await restarted.stop();
    expect(summary.exitCode).toBe(0);
    const after = await governance.results(ORDERS_PORT);
    expect(after.length).toBe(before + 1);
    expect(after.map((r) => r.environment).sort()).toEqual(['production', 'production', 'qa']);
  }, 90_000);
});
