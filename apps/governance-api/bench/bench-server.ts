// The server side of bench/submissions.ts: governance-api in its own process, so the load
// generator never shares its event loop, heap or garbage collector. Storage comes from
// BENCH_SERVER_STORAGE (the `storage` section of the configuration, as JSON) and DATABASE_URL;
// BENCH_SERVER_KEY is its platform-admin key; BENCH_ADMISSION (JSON) overrides the `admission`
// section. The demo is seeded (a guardian deployed in production).
// Prints the listening line; stops on SIGTERM, SIGINT or when its parent closes stdin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { startGovernanceApi } from '../src/server';

const key = process.env.BENCH_SERVER_KEY;
if (!key) throw new Error('BENCH_SERVER_KEY is required');
const storage = JSON.parse(process.env.BENCH_SERVER_STORAGE ?? '{}') as Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'governance-bench-server-'));
const api = await startGovernanceApi({
  config: {
    auth: { apiKeys: [{ name: 'bench', key, role: 'platform-admin' }] },
    storage,
    ...(process.env.BENCH_ADMISSION ? { admission: JSON.parse(process.env.BENCH_ADMISSION) } : {}),
    // The limiter runs (its cost is measured) but never refuses: the bench is one client.
    rateLimit: {
      anonymous: { requestsPerSecond: 1e6, burst: 1e6 },
      authenticated: { requestsPerSecond: 1e6, burst: 1e6 },
    },
  },
  dataDir: dir,
  port: 0,
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  logger: createLogger('bench-server', { level: 'silent' }),
  // A guardian deployed in `production` guarding the contract the benchmark submits for.
  demo: true,
});
console.log(JSON.stringify({ msg: 'listening', url: api.url }));
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop).resume();
