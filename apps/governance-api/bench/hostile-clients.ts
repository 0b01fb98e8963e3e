// Benchmark: does a hostile client degrade governance-api for the others? The app runs as it is
// started in production (its own process, default limits); a legitimate client reads policies at a
// steady 100 requests/s with its key, alone, then while a key guesser (wrong keys) and then an
// anonymous flooder hammer the server from as many connections as the per-client cap allows.
// Reported: the legitimate client's latency (p50, p99) and errors in each phase, and what the
// attacker got (401 / 429). Goal: the legitimate p99 stays within 3x its value alone, no error.
//   tsx --conditions=@dcg/source bench/hostile-clients.ts   (from apps/governance-api; BENCH_SECONDS=5)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const KEY = 'bench-hostile-admin-key-0123456789';
const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'governance-hostile-'));
const config = join(dir, 'config.json');
writeFileSync(
  config,
  JSON.stringify({ auth: { apiKeys: [{ name: 'bench', key: KEY, role: 'platform-admin' }] } }),
);

const child = spawn(
  process.execPath,
  ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
  {
    cwd: appDir,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', DCG_CONFIG: config, DCG_DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk;
    const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
    if (line) resolve(JSON.parse(line).url as string);
  });
  child.once('exit', (code) => reject(new Error(`the app exited with ${code}`)));
});

const legitimate = () =>
  autocannon({
    url: `${url}/v1/computational-governance/policies`,
    connections: 2,
    overallRate: 100,
    duration: SECONDS,
    headers: { authorization: `Bearer ${KEY}` },
  });
const attacker = (headers: Record<string, string>, path: string) =>
  autocannon({ url: `${url}${path}`, connections: 60, duration: SECONDS, headers });

type Result = Awaited<ReturnType<typeof autocannon>>;
const row = (phase: string, legit: Result, attack?: Result) => ({
  phase,
  'legit p50 ms': legit.latency.p50,
  'legit p99 ms': legit.latency.p99,
  'legit non-2xx': legit.non2xx,
  'legit errors': legit.errors,
  'attack requests': attack?.requests.total ?? 0,
  'attack 401': attack?.statusCodeStats?.['401']?.count ?? 0,
  'attack 429': attack?.statusCodeStats?.['429']?.count ?? 0,
});

try {
  // The legitimate key authenticates before any attack (so a lock-out of the address spares it).
  await fetch(`${url}/v1/computational-governance/policies`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  const alone = await legitimate();
  const [underGuessing, guesses] = await Promise.all([
    legitimate(),
    attacker({ authorization: 'Bearer a-wrong-key-0123456789abcdef' }, '/v1/provisioning/plans'),
  ]);
  const [underFlood, flood] = await Promise.all([
    legitimate(),
    attacker({}, '/v1/marketplace/instances'),
  ]);
  const rows = [
    row('alone', alone),
    row('key guesser', underGuessing, guesses),
    row('anonymous flood', underFlood, flood),
  ];
  console.table(rows);
  const worst = Math.max(underGuessing.latency.p99, underFlood.latency.p99);
  const errors = rows.reduce((n, r) => n + r['legit non-2xx'] + r['legit errors'], 0);
  console.log(
    `goal: legitimate p99 within 3x alone (${alone.latency.p99} ms) and no error: worst ${worst} ms, ${errors} errors (${worst <= 3 * Math.max(1, alone.latency.p99) && errors === 0 ? 'met' : 'not met'})`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
