import {
  postgresAvailable,
  postgresOutage,
  randomSchema,
  TEST_DATABASE_URL,
} from '@dcg/testing-postgres';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { bearerAuth } from './bearer-auth';
import { rateLimit } from './rate-limit';
import { openSharedLimits } from './shared-limits';

const KEY = 'a-valid-key-0123456789';
const available = await postgresAvailable();

type LimitConfig = Parameters<typeof rateLimit>[0]['config'];

describe.skipIf(!available)('rateLimit with shared limits on PostgreSQL (two instances)', () => {
  const pools: pg.Pool[] = [];
  const schemas: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    for (const drop of schemas) await drop();
  });

  /** Statements the instances sent to the database (of the limits, after start-up). */
  let statements = 0;

  /** Two instances of one app, each with a pool of its own, on one fresh schema. */
  async function twoInstances(config: LimitConfig) {
    const { schema, drop } = randomSchema('dcg_limits');
    schemas.push(drop);
    const keys = [{ key: KEY, name: 'ops', role: 'admin' }];
    const instance = async () => {
      const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 5 });
      pools.push(pool);
      const shared = await openSharedLimits({ pool, schema, timeoutMs: 30_000 });
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      (pool as unknown as { query: typeof query }).query = (...args) => {
        statements++;
        return query(...args);
      };
      const app = new Hono();
      app.use(rateLimit({ keys, config, shared }));
      app.get('/open', (c) => c.text('ok'));
      app.get('/closed', bearerAuth({ keys }), (c) => c.text('ok'));
      return (address: string, path = '/open', headers: Record<string, string> = {}) =>
        app.request(path, { headers }, { incoming: { socket: { remoteAddress: address } } });
    };
    return [await instance(), await instance()] as const;
  }

  it('grants a budget of N once across both instances: the (N+1)th answers 429 with Retry-After', async () => {
    const [a, b] = await twoInstances({ anonymous: { requestsPerSecond: 0.01, burst: 6 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 === 0 ? a : b)('10.0.0.1')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    for (const instance of [a, b]) {
      const refused = await instance('10.0.0.1');
      expect(refused.status).toBe(429);
      // The window is 6 / 0.01 = 600 s, of which (almost) all is left.
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(590);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    }
    // Another address has a budget of its own, on either instance.
    expect((await b('10.0.0.2')).status).toBe(200);
  });

  it('never grants more than the budget to many simultaneous requests on both instances', async () => {
    const [a, b] = await twoInstances({ anonymous: { requestsPerSecond: 0.01, burst: 10 } });
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? a : b)('10.0.0.9')),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(70);
    expect(answers.find((r) => r.status === 429)?.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('claims points ahead for a busy key (a statement per claim, not per request), never past the budget', async () => {
    const [a, b] = await twoInstances({
      authenticated: { requestsPerSecond: 0.1, burst: 400 },
      sharedClaimMax: 32,
    });
    const auth = { authorization: `Bearer ${KEY}` };
    // The key authenticates once from the address on each instance (then it is trusted there).
    expect((await a('10.0.0.7', '/closed', auth)).status).toBe(200);
    expect((await b('10.0.0.7', '/closed', auth)).status).toBe(200);
    statements = 0;
    const statuses: number[] = [];
    for (let wave = 0; wave < 30; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b)('10.0.0.7', '/closed', auth)),
      );
      statuses.push(...answers.map((r) => r.status));
    }
    const granted = statuses.filter((s) => s === 200).length + 2;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Claims raced for the last points may burn a few (an eighth of what was left at most).
    expect(granted).toBeLessThanOrEqual(400);
    expect(granted).toBeGreaterThan(350);
    // 398 requests granted and 202 refused (refused from memory once the budget is spent).
    expect(statements).toBeLessThan(600 / 4);
  });

  it('counts a key on every instance alike', async () => {
    const [a, b] = await twoInstances({ authenticated: { requestsPerSecond: 0.01, burst: 3 } });
    const auth = { authorization: `Bearer ${KEY}` };
    expect((await a('10.0.0.1', '/closed', auth)).status).toBe(200);
    expect((await b('10.0.0.2', '/closed', auth)).status).toBe(200);
    expect((await a('10.0.0.3', '/closed', auth)).status).toBe(200);
    const refused = await b('10.0.0.4', '/closed', auth);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ detail: expect.stringMatching(/with this key/) });
  });

  it('locks out an address after failed authentications on any instance, but not a key that authenticated from there', async () => {
    const [a, b] = await twoInstances({ failedAuth: { requestsPerSecond: 0.01, burst: 3 } });
    // The real key authenticates from the address first (on instance a).
    expect((await a('10.0.0.5', '/closed', { authorization: `Bearer ${KEY}` })).status).toBe(200);
    const wrong = { authorization: 'Bearer wrong-key-0123456789' };
    expect((await a('10.0.0.5', '/closed', wrong)).status).toBe(401);
    expect((await b('10.0.0.5', '/closed', wrong)).status).toBe(401);
    expect((await a('10.0.0.5', '/closed', wrong)).status).toBe(401);
    const locked = await b('10.0.0.5', '/closed', wrong);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.json()).toMatchObject({ code: 'AUTH_RATE_LIMITED' });
    // Instance b never saw the key succeed, yet knows it from the database.
    expect((await b('10.0.0.5', '/closed', { authorization: `Bearer ${KEY}` })).status).toBe(200);
    // Requests without credentials are not locked out.
    expect((await b('10.0.0.5', '/open')).status).toBe(200);
  });
});

describe.skipIf(!available)('rateLimit when the shared store stops answering', () => {
  it('falls back to the per-instance buckets: still limited, never unlimited, never a 5xx', async () => {
    const { schema, drop } = randomSchema('dcg_limits');
    const outage = await postgresOutage();
    const pool = new pg.Pool({ connectionString: outage.url, max: 2 });
    pool.on('error', () => undefined);
    try {
      const shared = await openSharedLimits({ pool, schema, timeoutMs: 2000 });
      const app = new Hono();
      const config = { anonymous: { requestsPerSecond: 0.01, burst: 3 } };
      app.use(rateLimit({ keys: [], config, shared }));
      app.get('/open', (c) => c.text('ok'));
      const from = () =>
        app.request('/open', {}, { incoming: { socket: { remoteAddress: '10.0.0.1' } } });
      // Two from the shared budget, then the database is gone.
      expect((await from()).status).toBe(200);
      expect((await from()).status).toBe(200);
      await outage.cut();
      // This instance's own bucket (full: 3) decides now.
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await from()).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await pool.end();
      await drop();
    }
  });
});
