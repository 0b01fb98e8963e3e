// Benchmark: evaluation-result submissions per second over HTTP (validation, the guard check and
// a durable, group-committed write), beside the same server answering a trivial route
// (GET /health), on SQLite and on PostgreSQL, with 2 and 32 connections.
// Goal at 32 connections: submissions >= 35% of the trivial route's rate on SQLite's default
// (synchronous=NORMAL) and >= 20% on PostgreSQL; the 2-connection figures are printed beside.
//   pnpm --filter @dcg/governance-api bench        (BENCH_SECONDS=3, BENCH_ROUNDS=5, BENCH_STORAGE=full,normal,postgres)
//   BENCH_QUICK=1 …                                (quick mode: 2 s per run, 3 rounds)
// The server seeds the demo (a guardian deployed in `production` guarding the submitted contract),
// so every submission passes the real check that a guardian guards it.
// The server runs in a child process (bench/bench-server.ts): autocannon in this process shares
// neither its event loop nor its heap, and both routes are measured against the same server.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_DATABASE_URL as DATABASE_URL } from '@dcg/testing-postgres';
import autocannon from 'autocannon';
import pg from 'pg';

const KEY = 'bench-admin-key-0123456789';
const QUICK = process.env.BENCH_QUICK === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 3));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 5));
/** The demo's guarded contract, in the demo's environment (see src/demo.ts). */
const CONTRACT = 'urn:dmb:cmp:finance:orders:0:orders-port';
const ENVIRONMENT = 'production';
const DEMO_GUARDIAN_TEMPLATE = 'urn:dmb:itm:dcg-demo-guardian:1';
// Comma-separated subset of full, normal, postgres (default: all three).
const STORAGE = new Set((process.env.BENCH_STORAGE ?? 'full,normal,postgres').split(','));

const submission = JSON.stringify([
  {
    resource: { id: CONTRACT, displayName: 'Orders port', descriptor: '' },
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

/**
 * CPU time (µs) the server's main thread has used, from /proc (Linux): per request it is far
 * steadier than a rate on a shared machine. Undefined elsewhere.
 */
function mainThreadCpuMicros(pid: number): number | undefined {
  const stat = `/proc/${pid}/task/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz).
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function run(
  api: { url: string; pid: number },
  connections: number,
  post: string | undefined,
): Promise<{
  rps: number;
  non2xx: number;
  errors: number;
  statuses: unknown;
  cpuMicros: number | undefined;
}> {
  const url = api.url;
  const cpuBefore = mainThreadCpuMicros(api.pid);
  const result = await autocannon({
    url: post
      ? `${url}/v1/computational-governance/policies/${encodeURIComponent(post)}/evaluation-results?environment=${ENVIRONMENT}`
      : `${url}/health`,
    connections,
    duration: SECONDS,
    method: post ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(post ? { body: submission } : {}),
  });
  const cpuAfter = mainThreadCpuMicros(api.pid);
  return {
    rps: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses: result.statusCodeStats,
    cpuMicros:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : (cpuAfter - cpuBefore) / result.requests.total,
  };
}

/** Starts bench/bench-server.ts in a child process and resolves with its URL. */
function spawnServer(
  storage: Record<string, unknown>,
  databaseUrl?: string,
): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', 'bench/bench-server.ts'],
    {
      cwd: appDir,
      env: {
        ...process.env,
        BENCH_SERVER_STORAGE: JSON.stringify(storage),
        BENCH_SERVER_KEY: KEY,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) =>
      reject(new Error(`the bench server exited with ${code}:\n${out}`)),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!line) return;
      child.stdout.removeAllListeners('data');
      resolve({
        url: (JSON.parse(line) as { url: string }).url,
        pid: child.pid!,
        close: () => {
          child.stdin.end();
          return exited;
        },
      });
    });
  });
}

async function measure(
  label: string,
  api: { url: string; pid: number },
): Promise<Array<Record<string, string | number>>> {
  // The passive policy of the demo guardian, deployed by the server at start-up.
  const template = await fetch(
    `${api.url}/v1/infrastructure-templates/${encodeURIComponent(DEMO_GUARDIAN_TEMPLATE)}`,
    { headers: { authorization: `Bearer ${KEY}` } },
  );
  if (template.status !== 200) throw new Error(`no demo guardian template: ${template.status}`);
  const policyId = ((await template.json()) as { policies: Array<{ policyId: string }> })
    .policies[0]!.policyId;
  await run(api, 8, policyId); // warm-up (JIT, caches); not reported
  const rows: Array<Record<string, string | number>> = [];
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const connections of [2, 32]) {
    // Alternate the two routes over several rounds: a busy machine shifts both alike, and the
    // median ratio of the rounds is what is reported.
    const trivial: number[] = [];
    const submit: number[] = [];
    const trivialCpu: number[] = [];
    const submitCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const health = await run(api, connections, undefined);
      trivial.push(health.rps);
      if (health.cpuMicros !== undefined) trivialCpu.push(health.cpuMicros);
      const measured = await run(api, connections, policyId);
      if (measured.cpuMicros !== undefined) submitCpu.push(measured.cpuMicros);
      if (measured.non2xx > 0 || measured.errors > 0) {
        throw new Error(
          `${label}: ${measured.non2xx} non-2xx answers (${JSON.stringify(measured.statuses)}), ${measured.errors} errors`,
        );
      }
      submit.push(measured.rps);
    }
    rows.push({
      storage: label,
      connections,
      'trivial req/s': Math.round(median(trivial)),
      'submissions/s': Math.round(median(submit)),
      ratio: `${(median(submit.map((v, k) => v / trivial[k]!)) * 100).toFixed(1)}%`,
      ...(trivialCpu.length > 0 && submitCpu.length > 0
        ? {
            'server µs/req trivial': Math.round(median(trivialCpu)),
            'server µs/req submission': Math.round(median(submitCpu)),
            // The same ratio from the server's CPU time per request: steadier on a busy machine.
            'cpu ratio': `${((median(trivialCpu) / median(submitCpu)) * 100).toFixed(1)}%`,
          }
        : {}),
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

const dir = mkdtempSync(join(tmpdir(), 'governance-bench-'));
const rows: Array<Record<string, string | number>> = [];
try {
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    if (!STORAGE.has(synchronous.toLowerCase())) continue;
    const sqlite = await spawnServer({
      sqlite: { file: join(dir, `bench-${synchronous}.db`), synchronous },
    });
    try {
      rows.push(...(await measure(`sqlite (synchronous=${synchronous})`, sqlite)));
    } finally {
      await sqlite.close();
    }
  }
  if (!STORAGE.has('postgres')) {
    // not asked for
  } else if (await postgresReachable()) {
    const schema = `dcg_bench_${Date.now()}`;
    const api = await spawnServer({ postgres: { schema } }, DATABASE_URL);
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
const ratioOf = (storage: string, connections: number) => {
  const row = rows.find((r) => r.storage === storage && r.connections === connections);
  return row === undefined ? undefined : Number.parseFloat(String(row.ratio));
};
for (const [storage, goal] of [
  ['sqlite (synchronous=NORMAL)', 35],
  ['sqlite (synchronous=FULL)', undefined],
  ['postgres', 20],
] as const) {
  const at32 = ratioOf(storage, 32);
  if (at32 === undefined) continue;
  const at2 = ratioOf(storage, 2);
  const verdict =
    goal === undefined
      ? 'no goal'
      : `goal >= ${goal}% at 32 connections: ${at32 >= goal ? 'met' : 'NOT met'}`;
  console.log(
    `${storage}: ${at32.toFixed(1)}% at 32 connections, ${at2?.toFixed(1)}% at 2 (${verdict})`,
  );
}
