// Benchmark: evaluation-result submissions per second over HTTP (validation + durable write),
// beside the same server answering a trivial route (GET /health), on SQLite and on PostgreSQL,
// with 2 and 32 connections. Goal: submissions >= 40% of the trivial route's rate on SQLite.
//   pnpm --filter @dcg/governance-api bench        (BENCH_SECONDS=5 by default)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import autocannon from 'autocannon';
import pg from 'pg';
import { type RunningGovernanceApi, startGovernanceApi } from '../src/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEY = 'bench-admin-key-0123456789';
const DATABASE_URL = process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const submission = JSON.stringify([
  {
    resource: { id: 'urn:dmb:cmp:bench:0:port', displayName: 'Bench port', descriptor: '' },
    result: {
      satisfiesPolicy: false,
      errors: [],
      details: {
        results: {
          root: [
            {
              key: 'dataContract',
              name: 'Data Contract',
              children: [
                {
                  key: 'quality',
                  name: 'Quality',
                  children: Array.from({ length: 8 }, (_, i) => ({
                    key: `check_${i}`,
                    compliant: i % 4 !== 0,
                    ...(i % 4 === 0 ? { issues: [`${i} rows fail`] } : {}),
                  })),
                },
                { key: 'sla', name: 'SLA', children: [{ key: 'freshness', compliant: true }] },
              ],
            },
          ],
        },
        notes: { errorSummary: { message: 'One or more data contract violations detected' } },
      },
    },
  },
]);

async function run(
  url: string,
  connections: number,
  post: boolean,
): Promise<{ rps: number; non2xx: number; errors: number }> {
  const result = await autocannon({
    url: post
      ? `${url}/v1/computational-governance/policies/bench-policy/evaluation-results?environment=bench`
      : `${url}/health`,
    connections,
    duration: SECONDS,
    // The load generator runs in a worker thread, not on the server's event loop.
    workers: 1,
    method: post ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(post ? { body: submission } : {}),
  });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors };
}

async function measure(
  label: string,
  api: RunningGovernanceApi,
): Promise<Array<Record<string, string | number>>> {
  const created = await fetch(`${api.url}/v1/computational-governance/policies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'bench-policy',
      name: 'Bench',
      resourceType: 'dataproduct',
      trigger: 'passive',
    }),
  });
  if (created.status !== 201) throw new Error(`cannot create the bench policy: ${created.status}`);
  await run(api.url, 8, true); // warm-up (JIT, caches); not reported
  const rows: Array<Record<string, string | number>> = [];
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const connections of [2, 32]) {
    // Alternate the two routes over several rounds: a busy machine shifts both alike, and the
    // median ratio of the rounds is what is reported.
    const trivial: number[] = [];
    const submit: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      trivial.push((await run(api.url, connections, false)).rps);
      const measured = await run(api.url, connections, true);
      if (measured.non2xx > 0 || measured.errors > 0) {
        throw new Error(`${label}: ${measured.non2xx} non-2xx answers, ${measured.errors} errors`);
      }
      submit.push(measured.rps);
    }
    rows.push({
      storage: label,
      connections,
      'trivial req/s': Math.round(median(trivial)),
      'submissions/s': Math.round(median(submit)),
      ratio: `${(median(submit.map((v, k) => v / trivial[k]!)) * 100).toFixed(1)}%`,
    });
  }
  return rows;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const logger = createLogger('bench', { level: 'silent' });
const config = {
  auth: { apiKeys: [{ name: 'bench', key: KEY, role: 'platform-admin' as const }] },
};
const dir = mkdtempSync(join(tmpdir(), 'governance-bench-'));
const rows: Array<Record<string, string | number>> = [];
try {
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const sqlite = await startGovernanceApi({
      config: {
        ...config,
        storage: { sqlite: { file: join(dir, `bench-${synchronous}.db`), synchronous } },
      },
      dataDir: dir,
      logger,
    });
    try {
      rows.push(...(await measure(`sqlite (synchronous=${synchronous})`, sqlite)));
    } finally {
      await sqlite.close();
    }
  }
  if (await postgresReachable()) {
    const schema = `dcg_bench_${Date.now()}`;
    const api = await startGovernanceApi({
      config: { ...config, storage: { postgres: { schema } } },
      dataDir: dir,
      databaseUrl: DATABASE_URL,
      logger,
    });
    try {
      rows.push(...(await measure('postgres', api)));
    } finally {
      await api.close();
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  } else {
    console.log(`PostgreSQL at ${DATABASE_URL} is unreachable: skipped`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.table(rows);
for (const mode of ['FULL', 'NORMAL']) {
  const measured = rows.filter((r) => r.storage === `sqlite (synchronous=${mode})`);
  const worst = Math.min(...measured.map((r) => Number.parseFloat(String(r.ratio)) / 100));
  console.log(
    `goal: submissions >= 40% of the trivial route on SQLite; synchronous=${mode}, worst of 2 and 32 connections: ${(worst * 100).toFixed(1)}% (${worst >= 0.4 ? 'met' : 'not met'})`,
  );
}
