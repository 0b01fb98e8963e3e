import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type RunningProcess,
  runToExit,
  type ServiceCommand,
  startProcess,
} from '@dcg/testing-process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GUARDIAN_KEY,
  startTestGovernance,
  type TestGovernance,
} from './__fixtures__/governance-api';
import { ORDERS_PORT, system } from './__fixtures__/systems';
import { TEST_DATABASE_URL, testSchema } from './postgres/__fixtures__/test-database';

// Runs the README's example guardian as written (the first ```ts block of README.md) against a
// real governance-api and PostgreSQL: scheduled, then `--once` in fresh processes.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const exampleFile = join(packageDir, `readme-example-${process.pid}.tmp.ts`);
const workDir = mkdtempSync(join(tmpdir(), 'dcg-readme-'));
const TEMPLATE = 'urn:dmb:itm:readme-guardian:1';

let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;
let governance: TestGovernance;
const children: RunningProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The example as a process, in `cwd` (its data directory is relative to it). */
function command(args: string[], env: Record<string, string> = {}, cwd = workDir): ServiceCommand {
  return {
    appDir: cwd,
    entry: exampleFile,
    args,
    env: {
      GOVERNANCE_URL: governance.url,
      DCG_API_KEY: GUARDIAN_KEY,
      DATABASE_URL: TEST_DATABASE_URL,
      ...env,
    },
  };
}

/** Started and left running for the test to follow; afterAll kills what is left. */
function example(args: string[], env: Record<string, string> = {}): RunningProcess {
  const running = startProcess(command(args, env));
  children.push(running);
  return running;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  ({ schema, pool, drop } = await testSchema());
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(`INSERT INTO ${schema}.orders (order_id, amount) VALUES ('a', 1), ('b', 2)`);
  governance = await startTestGovernance();
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  writeFileSync(exampleFile, /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '');
}, 60_000);

afterAll(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(exampleFile, { force: true });
  rmSync(workDir, { recursive: true, force: true });
  await governance?.close();
  await drop();
});

describe('the README example guardian', () => {
  it('is short, serves its probes, is provisioned through a deploy, submits, and stops on SIGTERM', async () => {
    const code = readFileSync(exampleFile, 'utf8');
    expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const run = example([], { PORT: String(port) });
    expect((await until('/health', () => fetch(`${url}/health`))).status).toBe(200);
    const ready = await fetch(`${url}/ready`);
    expect(await ready.json()).toEqual({ status: 'ready', ready: true, contracts: 0 });

    await governance.registerGuardian(TEMPLATE, url);
    const descriptor = system({
      contract: {
        schema: [
          { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
          { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
          { name: 'updated_at', dataType: 'timestamp', constraint: 'NOT_NULL' },
        ],
        SLA: { timeliness: '1 hour' },
        endpoint: `${schema}.orders`,
      },
    });
    (descriptor.components[2] as Record<string, unknown>).infrastructureTemplateId = TEMPLATE;
    descriptor.components.splice(1, 1);
    const plan = await governance.plan('deploy', { environment: 'qa', descriptor });
    expect(plan.status, JSON.stringify(plan.errors)).toBe('completed');

    const results = await until('a result', async () => {
      const r = await governance.results(ORDERS_PORT);
      return r.length > 0 ? r : undefined;
    });
    expect(results[0], run.output()).toMatchObject({
      environment: 'qa',
      status: 'compliant',
    });
    const stored = JSON.stringify(results[0]);
    expect(stored).toContain('"has_columns"');
    expect(stored).toContain('"primary_key"');
    await until('the log line', async () =>
      run.stdout().includes(`["${ORDERS_PORT}","compliant",null]`) ? true : undefined,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited()).toBe(0);
  }, 90_000);

  it('--once in a fresh process finds what it was provisioned with, and exits 0', async () => {
    const before = (await governance.results(ORDERS_PORT)).length;
    const once = await runToExit(command(['--once']));
    expect(once.code, once.stderr).toBe(0);
    expect(await governance.results(ORDERS_PORT)).toHaveLength(before + 1);
  }, 60_000);

  it('--once says why it could not run and exits 2: governance-api down, nothing provisioned', async () => {
    const down = await runToExit(command(['--once'], { GOVERNANCE_URL: 'http://127.0.0.1:1' }));
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(
      new RegExp(
        `^could not run: ${ORDERS_PORT} \\(qa\\): the result could not be submitted: the governance API cannot be reached: .+$`,
        'm',
      ),
    );
    const empty = await runToExit(command(['--once'], {}, mkdtempSync(join(workDir, 'empty-'))));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /could not run: no contract to check: the guardian has not been provisioned \(registry \.dcg-data\/guardian\/contracts\.json\)/,
    );
  }, 60_000);

  it('SIGTERM during --once cancels its query on the server and exits 2 promptly, sending nothing', async () => {
    const before = (await governance.results(ORDERS_PORT)).length;
    const blocker = await pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE ${schema}.orders IN ACCESS EXCLUSIVE MODE`);
      const waiting = () =>
        pool
          .query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE $1`,
            [`%${schema}%orders%`],
          )
          .then((r) => r.rows[0].n as number);
      const once = example(['--once']);
      await until('the --once query to wait on the lock', async () =>
        (await waiting()) > 0 ? true : undefined,
      );
      const t0 = Date.now();
      once.child.kill('SIGTERM');
      expect(await once.exited()).toBe(2);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(once.stderr()).toMatch(/SIGTERM: abandoning the run, nothing is sent/);
      // The lock is still held: the query is gone because it was cancelled, not because it ran.
      await until('the query to be cancelled', async () =>
        (await waiting()) === 0 ? true : undefined,
      );
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect(await governance.results(ORDERS_PORT)).toHaveLength(before);
  }, 60_000);
});
