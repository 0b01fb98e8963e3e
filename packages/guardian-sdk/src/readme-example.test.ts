import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EvaluationResultSubmission, validateSubmission } from '@dcg/contract-schema';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisioningRequest, system } from './__fixtures__/systems';
import { TEST_DATABASE_URL, testSchema } from './postgres/__fixtures__/test-database';

// Runs the README's example guardian as written: the first ```ts block of README.md.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const exampleFile = join(packageDir, `readme-example-${process.pid}.tmp.ts`);
const tsx = join(packageDir, '..', '..', 'node_modules', '.bin', 'tsx');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let schema = '';
let pool: pg.Pool;
let drop: () => Promise<void>;
let governance: ReturnType<typeof serve>;
let governanceUrl = '';
const received: Array<{
  policy: string;
  environment: string | undefined;
  auth: string | undefined;
  body: EvaluationResultSubmission;
}> = [];
let child: ChildProcess | undefined;

beforeAll(async () => {
  ({ schema, pool, drop } = await testSchema());
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(`INSERT INTO ${schema}.orders (order_id, amount) VALUES ('a', 1), ('b', 2)`);
  // A governance API stand-in that enforces the real A3/A4 schema on what it receives.
  const app = new Hono().post(
    '/v1/computational-governance/policies/:policy/evaluation-results',
    async (c) => {
      const validation = validateSubmission(await c.req.json());
      if (!validation.success) return c.json({ title: 'bad', issues: validation.issues }, 400);
      received.push({
        policy: c.req.param('policy'),
        environment: c.req.query('environment'),
        auth: c.req.header('authorization'),
        body: validation.data,
      });
      return c.json({ seq: received.length }, 201);
    },
  );
  await new Promise<void>((resolve) => {
    governance = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      governanceUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});

afterAll(async () => {
  child?.kill('SIGKILL');
  rmSync(exampleFile, { force: true });
  await new Promise<void>((r) => governance.close(() => r()));
  await drop();
});

describe('the README example guardian', () => {
  it('is about 40 lines, is provisioned, checks the table, submits, and stops on SIGTERM', async () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(code.split('\n').length).toBeLessThan(60);
    writeFileSync(exampleFile, code);
    const port = await freePort();
    child = spawn(tsx, ['--conditions=@dcg/source', exampleFile], {
      cwd: packageDir,
      env: {
        ...process.env,
        PORT: String(port),
        GOVERNANCE_URL: governanceUrl,
        DCG_API_KEY: 'k',
        DATABASE_URL: TEST_DATABASE_URL,
        DCG_ENVIRONMENT: 'qa',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (c) => resolve(c)));

    const contract = {
      schema: [
        { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
        { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
        { name: 'updated_at', dataType: 'timestamp', constraint: 'NOT_NULL' },
      ],
      SLA: { timeliness: '1 hour' },
      endpoint: `${schema}.orders`,
    };
    const descriptor = system({ policyId: 'policy-7', contract });
    delete (descriptor as { environment?: string }).environment;
    let answer: { status: string; info: { publicInfo: Record<string, unknown> } } | undefined;
    for (let i = 0; i < 100 && !answer; i++) {
      answer = await fetch(`http://127.0.0.1:${port}/v1/provision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(provisioningRequest(descriptor)),
      })
        .then((r) => r.json() as never)
        .catch(() => new Promise((r) => setTimeout(() => r(undefined), 100)));
    }
    expect(answer?.status).toBe('COMPLETED');
    expect(answer?.info.publicInfo).toEqual({
      contracts: { type: 'string', label: 'Contracts', value: '1' },
    });

    for (let i = 0; i < 200 && received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(received[0], output).toMatchObject({
      policy: 'policy-7',
      environment: 'qa',
      auth: 'Bearer k',
    });
    expect(received[0]?.body[0]?.result.satisfiesPolicy, JSON.stringify(received[0]?.body)).toBe(
      true,
    );
    const keys = JSON.stringify(received[0]?.body[0]?.result.details.results.root);
    expect(keys).toContain('"has_columns"');
    expect(keys).toContain('"primary_key"');
    for (let i = 0; i < 50 && !output.includes('"outcome"'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('"outcome":"compliant"');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
