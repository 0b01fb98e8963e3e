// What the hardening middleware costs per request, in process (no sockets): a bare Hono route,
// then with securityHeaders, rateLimit (anonymous and with a key), both, and the metrics middleware
// (prom-client counter, histogram and in-flight gauge per route), as ratios to the bare
// route measured in the same run (rounds alternate the variants; medians are reported).
//   pnpm --filter @dcg/http-kit bench        (BENCH_REQUESTS per variant and round, default 50,000)
import type { IncomingMessage } from 'node:http';
import { Hono, type MiddlewareHandler } from 'hono';
import { ServiceMetrics } from '../src/metrics';
import { rateLimit } from '../src/rate-limit';
import { securityHeaders } from '../src/security-headers';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50_000);
const ROUNDS = 5;
const KEY = 'bench-key-0123456789abcdef';
const never = { requestsPerSecond: 1e6, burst: 1e6 };

function app(middleware: MiddlewareHandler[]): Hono {
  const hono = new Hono();
  for (const m of middleware) hono.use(m);
  hono.get('/x', (c) => c.json({ ok: true }));
  return hono;
}
const limiter = () =>
  rateLimit({
    keys: [{ key: KEY, name: 'bench' }],
    config: { anonymous: never, authenticated: never },
  });

const variants: Record<string, { app: Hono; headers?: Record<string, string> }> = {
  bare: { app: app([]) },
  securityHeaders: { app: app([securityHeaders()]) },
  'rateLimit (anonymous)': { app: app([limiter()]) },
  'rateLimit (key)': { app: app([limiter()]), headers: { authorization: `Bearer ${KEY}` } },
  'both (anonymous)': { app: app([securityHeaders(), limiter()]) },
  'metrics middleware': {
    app: app([new ServiceMetrics({ service: 'bench', processMetrics: false }).middleware()]),
  },
};

const env = { incoming: { socket: { remoteAddress: '10.0.0.1' } } as unknown as IncomingMessage };
async function measure(variant: { app: Hono; headers?: Record<string, string> }): Promise<number> {
  const init = variant.headers ? { headers: variant.headers } : {};
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await variant.app.request('/x', init, env);
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS;
}

const samples = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
for (const variant of Object.values(variants)) await measure(variant); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, variant] of Object.entries(variants))
    samples.get(name)?.push(await measure(variant));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
const bare = median(samples.get('bare') ?? []);
console.table(
  [...samples].map(([name, xs]) => ({
    variant: name,
    'µs/request': (median(xs) / 1000).toFixed(2),
    'vs bare': `${((median(xs) / bare) * 100).toFixed(0)}%`,
  })),
);
