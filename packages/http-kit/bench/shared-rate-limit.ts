// What keeping the rate limits in PostgreSQL costs per request, in process (no sockets): a route
// behind rateLimit with in-memory buckets, then with the shared counters (one atomic upsert per
// request over a pool of 10), sequential and 32 at a time; medians of alternating rounds, with the
// ratio to the in-memory limiter measured in the same run. Needs the test PostgreSQL.
//   pnpm --filter @dcg/http-kit exec tsx --conditions=@dcg/source bench/shared-rate-limit.ts
import type { IncomingMessage } from 'node:http';
import { randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { Hono } from 'hono';
import pg from 'pg';
import { rateLimit } from '../src/rate-limit';
import { openSharedLimits } from '../src/shared-limits';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const ROUNDS = 3;
const never = { requestsPerSecond: 1e6, burst: 1e6 };
const { schema, drop } = randomSchema('dcg_bench_limits');
const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10 });
const shared = await openSharedLimits({ pool, schema });

const app = (withShared: boolean) => {
  const hono = new Hono();
  hono.use(
    rateLimit({ keys: [], config: { anonymous: never }, ...(withShared ? { shared } : {}) }),
  );
  hono.get('/x', (c) => c.json({ ok: true }));
  return hono;
};
const variants = { memory: app(false), postgres: app(true) };

async function run(hono: Hono, concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < REQUESTS) {
        next++;
        // Many addresses: each its own row, as with real clients.
        const env = {
          incoming: {
            socket: { remoteAddress: `10.0.${worker}.${next % 250}` },
          } as unknown as IncomingMessage,
        };
        const res = await hono.request('/x', {}, env);
        if (res.status !== 200) throw new Error(`status ${res.status}`);
      }
    }),
  );
  return (REQUESTS / (performance.now() - started)) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  for (const concurrency of [1, 32]) {
    const rates: Record<string, number[]> = { memory: [], postgres: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, hono] of Object.entries(variants))
        rates[name]!.push(await run(hono, concurrency));
    }
    const memory = median(rates.memory!);
    const postgres = median(rates.postgres!);
    console.log(
      `concurrency ${concurrency}: memory ${memory.toFixed(0)} req/s, postgres ${postgres.toFixed(0)} req/s (${(memory / postgres).toFixed(1)}x slower; ${((1000 / postgres) * concurrency).toFixed(2)} ms per request)`,
    );
  }
} finally {
  await pool.end();
  await drop();
}
