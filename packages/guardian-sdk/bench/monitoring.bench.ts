// One guardian monitoring many contracts with the built-in PostgreSQL checks: contract runs per
// minute, and the time a run spends in PostgreSQL against the time in the SDK.
//
//   pnpm --filter @dcg/guardian-sdk bench
//   BENCH_CONTRACTS (default 1000), BENCH_ROWS (rows per table, default 10000), BENCH_ROUNDS (3),
//   BENCH_CONCURRENCY (4), DCG_TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)
//
// Each contract has its own table in a throw-away schema (dropped at the end). The results go to
// an in-process sink, so the figures are the guardian's alone (no network, no governance-api).
import { TEST_DATABASE_URL } from '@dcg/testing-postgres';
import pg from 'pg';
import {
  type GuardedContract,
  type MonitoredContract,
  parseDataContract,
  runGuardian,
  type SubmitInput,
} from '../src/index';
import { postgresContractCheck } from '../src/postgres/index';

const contracts = Number(process.env.BENCH_CONTRACTS ?? 1000);
const rows = Number(process.env.BENCH_ROWS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const url = TEST_DATABASE_URL;
const schema = `dcg_bench_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

function contractFor(i: number): unknown {
  const table = `t${i}`;
  if (i % 2 === 0) {
    return {
      schema: [
        { name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' },
        { name: 'amount', dataType: 'decimal', constraint: 'NOT_NULL' },
        { name: 'status', dataType: 'string' },
        { name: 'updated_at', dataType: 'timestamp' },
      ],
      SLA: { timeliness: '2 hours' },
      endpoint: `${schema}.${table}`,
    };
  }
  return {
    apiVersion: 'v3.0.2',
    servers: [{ type: 'postgres', schema }],
    schema: [
      {
        name: table,
        properties: [
          { name: 'id', logicalType: 'string', primaryKey: true },
          {
            name: 'amount',
            logicalType: 'number',
            required: true,
            quality: [{ metric: 'nullValues', mustBe: 0 }],
          },
          {
            name: 'status',
            logicalType: 'string',
            quality: [
              {
                metric: 'invalidValues',
                arguments: { validValues: ['open', 'closed'] },
                mustBe: 0,
              },
              {
                metric: 'missingValues',
                arguments: { missingValues: [null, ''] },
                mustBeLessThan: 5,
                unit: 'percent',
              },
            ],
          },
          { name: 'updated_at', logicalType: 'date', physicalType: 'timestamptz' },
        ],
        quality: [{ metric: 'rowCount', mustBeGreaterThan: 0 }],
      },
    ],
    slaProperties: [{ property: 'latency', value: 2, unit: 'h', element: `${table}.updated_at` }],
  };
}

const pool = new pg.Pool({ connectionString: url, max: concurrency });
try {
  const setup = performance.now();
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(
    `CREATE TABLE ${schema}.template (id text NOT NULL, amount numeric(12,2) NOT NULL, status text, updated_at timestamptz NOT NULL)`,
  );
  await pool.query(
    `INSERT INTO ${schema}.template SELECT 'id-' || i, i, CASE WHEN i % 2 = 0 THEN 'open' ELSE 'closed' END, now() - interval '10 minutes' FROM generate_series(1, $1) i`,
    [rows],
  );
  for (let i = 0; i < contracts; i++) {
    await pool.query(`CREATE TABLE ${schema}.t${i} AS TABLE ${schema}.template`);
    await pool.query(
      `ALTER TABLE ${schema}.t${i} ALTER COLUMN id SET NOT NULL, ALTER COLUMN amount SET NOT NULL, ALTER COLUMN updated_at SET NOT NULL`,
    );
  }
  await pool.query(`ANALYZE`);
  console.log(
    `set-up: ${contracts} tables of ${rows} rows in ${((performance.now() - setup) / 1000).toFixed(1)} s`,
  );

  const monitored: MonitoredContract[] = [];
  for (let i = 0; i < contracts; i++) {
    const parsed = parseDataContract(contractFor(i));
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const guarded: GuardedContract = {
      resourceId: `urn:dmb:cmp:bench:b:0:port-${i}`,
      displayName: `port ${i}`,
      parts: [
        {
          key: 'root',
          component: { id: `urn:dmb:cmp:bench:b:0:port-${i}` },
          contract: parsed.data,
        },
      ],
      scheduling: undefined,
    };
    monitored.push({ ...guarded, policyId: 'bench', environment: 'bench' });
  }

  let dbMs = 0;
  let submitted = 0;
  let violated = 0;
  const sink = {
    submit: async (input: SubmitInput) => {
      submitted++;
      if (!input.body[0]?.result.satisfiesPolicy) violated++;
      return { status: 201, attempts: 1, body: {} };
    },
  };
  const guardian = runGuardian({
    contracts: monitored,
    checks: [
      postgresContractCheck({
        pool,
        onDatabaseTime: (ms) => {
          dbMs += ms;
        },
      }),
    ],
    client: sink,
    concurrency,
    scheduled: false,
  });
  // A warm-up round (JIT, plans, caches), not counted.
  await guardian.runOnce();
  const results: Array<{
    wall: number;
    perMinute: number;
    db: number;
    sdk: number;
    share: number;
  }> = [];
  for (let round = 0; round < rounds; round++) {
    dbMs = 0;
    const t0 = performance.now();
    const summary = await guardian.runOnce();
    const wall = performance.now() - t0;
    const total = summary.reports.reduce((n, r) => n + r.durationMs, 0);
    const sdk = total - dbMs;
    results.push({
      wall,
      perMinute: (summary.reports.length * 60_000) / wall,
      db: dbMs,
      sdk,
      share: sdk / total,
    });
    console.log(
      `round ${round + 1}: ${summary.reports.length} contract runs in ${(wall / 1000).toFixed(2)} s = ${Math.round(
        (summary.reports.length * 60_000) / wall,
      )} runs/min; per run: ${(total / summary.reports.length).toFixed(2)} ms, PostgreSQL ${(dbMs / summary.reports.length).toFixed(2)} ms, SDK ${(sdk / summary.reports.length).toFixed(2)} ms (${((100 * sdk) / total).toFixed(2)} %); violated ${summary.violated}, errors ${summary.errors}`,
    );
  }
  await guardian.stop();
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  console.log(
    `\nmedian of ${rounds}: ${Math.round(median(results.map((r) => r.perMinute)))} contract runs/min with concurrency ${concurrency}; SDK share of a run ${(100 * median(results.map((r) => r.share))).toFixed(2)} % (goal < 5 %)`,
  );
  console.log(
    `peak RSS of the guardian process: ${(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1024 / 1024).toFixed(0)} MiB; results sent ${submitted}, violated ${violated}`,
  );
} finally {
  clearInterval(sampler);
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
  await pool.end();
}
