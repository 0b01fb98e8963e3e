import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningGovernanceApi, startGovernanceApi } from '@dcg/governance-api';
import { TEST_DATABASE_URL as DATABASE_URL, randomSchema } from '@dcg/testing-postgres';
import { type SpawnedService, spawnService } from '@dcg/testing-process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: the JSON answers of the API under test
type Json = any;

// governance-api (in process) + the reference guardian (a real process) + the real PostgreSQL.

const ADMIN = 'e2e-admin-key-0123456789';
const GUARDIAN_KEY = 'e2e-guardian-key-0123456789';
const ENV = 'production';
const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const { schema } = randomSchema('dcg_pgg');
const dataDir = mkdtempSync(join(tmpdir(), 'dcg-pgg-'));
const GUARDIAN_TEMPLATE = 'urn:dmb:itm:postgres-guardian:1';
const WITBOOST_PORT = 'urn:dmb:cmp:finance:orders:0:orders-port';
const ODCS_PORT = 'urn:dmb:cmp:finance:orders:0:payments-port';
const GUARDIAN = 'urn:dmb:cmp:finance:orders:0:guardian';

let pool: pg.Pool;
let api: RunningGovernanceApi;
let guardian: SpawnedService;

async function call(
  method: string,
  path: string,
  body?: unknown,
  key = ADMIN,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    last = await probe().catch((e) => e);
    if (last !== undefined && !(last instanceof Error)) return last as T;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${String(last)})`);
}

const compliance = (id: string) =>
  call(
    'GET',
    `/v1/marketplace/data-contracts/${encodeURIComponent(id)}/compliance?environment=${ENV}`,
  ).then((r) => r.body);
const resultCount = (id: string) =>
  call(
    'GET',
    `/v1/computational-governance/data-contracts/${encodeURIComponent(id)}/evaluation-results?limit=1`,
  ).then((r) => r.body.meta.pagination.total as number);
interface TreeNode {
  issues?: string[];
  children?: TreeNode[];
}
function issuesOf(status: { tree: TreeNode[] }): string[] {
  const out: string[] = [];
  const walk = (nodes: TreeNode[]) => {
    for (const n of nodes) {
      out.push(...(n.issues ?? []));
      walk(n.children ?? []);
    }
  };
  walk(status.tree);
  return out;
}

function system(templateId = GUARDIAN_TEMPLATE, id = 'urn:dmb:dp:finance:orders:0') {
  return {
    id,
    name: 'Orders',
    kind: 'dataproduct',
    domain: 'finance',
    version: '0.1.0',
    components: [
      {
        id: WITBOOST_PORT,
        name: 'Orders',
        kind: 'outputport',
        consumable: true,
        __dataContractEnabled: true,
        dataContract: {
          schema: [
            { name: 'order_id', dataType: 'string', constraint: 'PRIMARY_KEY' },
            { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
            { name: 'note', dataType: 'string' },
            { name: 'updated_at', dataType: 'timestamp' },
          ],
          SLA: { intervalOfChange: '1 day', timeliness: '2 hours', upTime: '99.9%' },
          endpoint: `${schema}.orders`,
        },
      },
      {
        id: ODCS_PORT,
        name: 'Payments',
        kind: 'outputport',
        consumable: true,
        __dataContractEnabled: true,
        dataContract: {
          apiVersion: 'v3.0.2',
          kind: 'DataContract',
          id: 'payments',
          servers: [
            {
              server: 'local',
              type: 'postgres',
              host: '127.0.0.1',
              port: 5432,
              database: 'test',
              schema,
            },
          ],
          schema: [
            {
              name: 'payments',
              properties: [
                { name: 'payment_id', logicalType: 'integer', primaryKey: true },
                {
                  name: 'amount',
                  logicalType: 'number',
                  required: true,
                  quality: [{ metric: 'nullValues', mustBe: 0 }],
                },
                { name: 'paid_at', logicalType: 'date', physicalType: 'timestamptz' },
              ],
              quality: [{ metric: 'rowCount', mustBeGreaterThan: 0 }],
            },
          ],
          slaProperties: [
            { property: 'latency', value: 1, unit: 'd', element: 'payments.paid_at' },
          ],
        },
      },
      {
        id: GUARDIAN,
        name: 'PostgreSQL guardian',
        kind: 'workload',
        infrastructureTemplateId: templateId,
        __dataContractGuardianSpec: {
          guards: [{ dataContractId: WITBOOST_PORT }, { dataContractId: ODCS_PORT }],
        },
      },
    ],
  };
}

async function deploy(descriptor: unknown): Promise<Json> {
  const started = await call('POST', '/v1/provisioning/deploy', { environment: ENV, descriptor });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return until('the plan', async () => {
    const plan = (await call('GET', `/v1/provisioning/plans/${started.body.id}`)).body;
    return plan.status === 'running' ? undefined : plan;
  });
}

beforeAll(async () => {
  // governance-api's request log would bury the test output.
  process.env.LOG_LEVEL ??= 'warn';
  pool = new pg.Pool({ connectionString: DATABASE_URL, max: 3 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(
    `CREATE TABLE ${schema}.orders (order_id text NOT NULL, amount numeric(10,2) NOT NULL, note text, updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(
    `INSERT INTO ${schema}.orders (order_id, amount) SELECT 'o' || i, i FROM generate_series(1, 100) i`,
  );
  await pool.query(
    `CREATE TABLE ${schema}.payments (payment_id integer NOT NULL, amount numeric NOT NULL, paid_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(
    `INSERT INTO ${schema}.payments (payment_id, amount) SELECT i, i FROM generate_series(1, 100) i`,
  );

  api = await startGovernanceApi({
    dataDir: join(dataDir, 'governance'),
    port: 0,
    config: {
      auth: {
        apiKeys: [
          { name: 'admin', key: ADMIN, role: 'platform-admin' },
          { name: 'guardian', key: GUARDIAN_KEY, role: 'guardian' },
        ],
      },
      provisioning: { pollIntervalMs: 50, pollTimeoutMs: 10_000, requestTimeoutMs: 10_000 },
    },
  });

  guardian = await spawnService({
    appDir,
    env: {
      GOVERNANCE_URL: api.url,
      DCG_API_KEY: GUARDIAN_KEY,
      DATABASE_URL,
      DCG_DATA_DIR: join(dataDir, 'guardian'),
      DCG_ENVIRONMENT: ENV,
      CHECK_INTERVAL: '1s',
      STOP_DEADLINE_MS: '300',
      // The test follows the runs through the guardian's log lines ('run started' is debug).
      LOG_LEVEL: 'debug',
    },
  });
}, 60_000);

afterAll(async () => {
  await guardian?.stop();
  await api?.close();
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('postgres-guardian end to end', () => {
  let policyId = '';

  it('registers the guardian template, deploys, hands the guardian its policy id', async () => {
    const registered = await call('POST', '/v1/infrastructure-templates', {
      id: GUARDIAN_TEMPLATE,
      name: 'PostgreSQL guardian',
      version: '1.0.0',
      url: guardian.url,
      properties: {
        dataContractGuardian: {
          policies: [
            {
              resourceType: 'dataproduct',
              spec: { name: 'Data product contracts', description: 'Checked in PostgreSQL' },
            },
          ],
        },
      },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    policyId = registered.body.policies[0].policyId;
    const plan = await deploy(system());
    expect(plan.status, JSON.stringify(plan)).toBe('completed');
    const task = plan.tasks.find((t: Json) => t.componentId === GUARDIAN);
    expect(task.info.privateInfo.__dataContractGuardian.policyId).toBe(policyId);
    expect(task.info.publicInfo.monitoredContracts.value).toBe('2');
    const stored = JSON.parse(readFileSync(join(dataDir, 'guardian', 'contracts.json'), 'utf8'));
    expect(
      stored.guardians[GUARDIAN].map((c: Json) => [c.resourceId, c.policyId, c.environment]),
    ).toEqual([
      [WITBOOST_PORT, policyId, ENV],
      [ODCS_PORT, policyId, ENV],
    ]);
  }, 90_000);

  it('a monitoring run makes both contracts compliant in the marketplace', async () => {
    for (const id of [WITBOOST_PORT, ODCS_PORT]) {
      const status = await until(`${id} compliant`, async () => {
        const s = await compliance(id);
        return s?.status === 'compliant' ? s : undefined;
      });
      expect(status.policyId).toBe(policyId);
      expect(status.counts.failing).toBe(0);
      expect(status.counts.compliant).toBeGreaterThan(5);
    }
  }, 90_000);

  it('a broken table is seen violated with the issues a person can act on', async () => {
    await pool.query(
      `ALTER TABLE ${schema}.orders DROP COLUMN note, ALTER COLUMN amount DROP NOT NULL`,
    );
    await pool.query(
      `INSERT INTO ${schema}.orders (order_id, amount) VALUES ('o7', 1), ('o200', NULL)`,
    );
    await pool.query(`UPDATE ${schema}.orders SET updated_at = now() - interval '5 hours'`);
    await pool.query(`ALTER TABLE ${schema}.payments ALTER COLUMN amount DROP NOT NULL`);
    await pool.query(`UPDATE ${schema}.payments SET amount = NULL WHERE payment_id <= 3`);
    const status = await until('violated', async () => {
      const s = await compliance(WITBOOST_PORT);
      return s?.status === 'violated' && issuesOf(s).some((i) => i.includes('5 h')) ? s : undefined;
    });
    const issues = issuesOf(status);
    expect(issues).toEqual(
      expect.arrayContaining([
        `column note is missing from ${schema}.orders`,
        'column amount allows nulls, the contract says it is required',
        '1 row repeats the order_id of another row',
        '1 row has a null amount',
        expect.stringMatching(/^the newest updated_at is 5 h( \d+ s)? old, the SLA allows 2 h$/),
      ]),
    );
    expect(status.summary ?? status.message ?? '').toBeTruthy();
    const payments = await until('payments violated', async () => {
      const s = await compliance(ODCS_PORT);
      return s?.status === 'violated' ? s : undefined;
    });
    expect(issuesOf(payments)).toEqual(
      expect.arrayContaining([
        '3 rows have a null amount',
        'nullValues of amount: 3 rows; it must be 0',
      ]),
    );
  }, 90_000);

  it('the plan is terminated when the guardian template is not registered', async () => {
    const plan = await deploy(system('urn:dmb:itm:not-registered:1', 'urn:dmb:dp:finance:other:0'));
    expect(plan.status).toBe('terminated');
    expect(JSON.stringify(plan.errors)).toMatch(/not registered/);
  });

  it('SIGTERM during a run: the run is abandoned, no half-sent result, the process exits 0', async () => {
    // Hold a lock that blocks the guardian's aggregate query on orders: the next run hangs there.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE ${schema}.orders IN ACCESS EXCLUSIVE MODE`);
    let before = -1;
    let last: { status: string; evaluatedAt: string } | undefined;
    try {
      const seen = guardian.records().length;
      await until('a run to start on orders', async () =>
        guardian
          .records()
          .slice(seen)
          .find((l) => l.msg === 'run started' && l.contract === WITBOOST_PORT),
      );
      await new Promise((r) => setTimeout(r, 300));
      before = await resultCount(WITBOOST_PORT);
      last = await compliance(WITBOOST_PORT);
      guardian.child.kill('SIGTERM');
      await until('the run to be abandoned', async () =>
        guardian
          .records()
          .slice(seen)
          .find(
            (l) =>
              l.msg === 'run finished' && l.contract === WITBOOST_PORT && l.outcome === 'abandoned',
          ),
      );
      expect(await guardian.exited()).toBe(0);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect(await resultCount(WITBOOST_PORT)).toBe(before);
    const after = await compliance(WITBOOST_PORT);
    expect(after.status).toBe(last?.status);
    expect(after.evaluatedAt).toBe(last?.evaluatedAt);
  }, 90_000);

  it('malformed details are stored and shown as "cannot be processed"', async () => {
    const sent = await call(
      'POST',
      `/v1/computational-governance/policies/${policyId}/evaluation-results?environment=${ENV}`,
      [
        {
          resource: { id: ODCS_PORT, descriptor: '' },
          result: {
            satisfiesPolicy: true,
            details: { results: { root: [{ key: 'x', compliant: true, children: [] }] } },
          },
        },
      ],
      GUARDIAN_KEY,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const status = await compliance(ODCS_PORT);
    expect(status.status).toBe('unprocessable');
    expect(status.message).toMatch(/cannot be processed/);
  });
});
