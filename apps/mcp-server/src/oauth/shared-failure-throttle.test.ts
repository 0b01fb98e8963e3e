import { openSharedLimits } from '@dcg/http-kit';
import {
  postgresAvailable,
  postgresOutage,
  randomSchema,
  TEST_DATABASE_URL,
} from '@dcg/testing-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedFailureThrottle } from './failure-throttle';

const available = await postgresAvailable();

describe.skipIf(!available)('sharedFailureThrottle: one back-off for every instance', () => {
  const pools: pg.Pool[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    for (const drop of drops) await drop();
  });
  const pool = (url = TEST_DATABASE_URL) => {
    const p = new pg.Pool({ connectionString: url, max: 2 });
    p.on('error', () => undefined);
    pools.push(p);
    return p;
  };

  it('counts failures on two instances together, doubles the lock, and a success clears it', async () => {
    const { schema, drop } = randomSchema('dcg_throttle');
    drops.push(drop);
    const options = { freeFailures: 2, baseSeconds: 60, maxSeconds: 600 };
    const a = sharedFailureThrottle(
      await openSharedLimits({ pool: pool(), schema }),
      'login',
      options,
    );
    const b = sharedFailureThrottle(
      await openSharedLimits({ pool: pool(), schema }),
      'login',
      options,
    );
    const keys = ['account:ada', 'address:203.0.113.7'];
    expect(await a.failed(keys)).toBe(0);
    expect(await b.failed(keys)).toBe(0);
    expect(await a.wait(keys)).toBe(0);
    // The third failure in all (only the second on b) locks for 60 s …
    expect(await b.failed(keys)).toBe(60);
    const wait = await a.wait(keys);
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    // … the fourth for twice as long, seen from the other instance.
    expect(await a.failed(keys)).toBe(120);
    expect(await b.wait(['account:ada'])).toBeGreaterThan(115);
    // Another throttle name (client secrets) counts apart.
    const secrets = sharedFailureThrottle(
      await openSharedLimits({ pool: pool(), schema }),
      'client-secret',
      options,
    );
    expect(await secrets.wait(keys)).toBe(0);
    // A success clears the account on every instance; the address stays locked.
    await b.succeeded(['account:ada']);
    expect(await a.wait(['account:ada'])).toBe(0);
    expect(await a.wait(['address:203.0.113.7'])).toBeGreaterThan(115);
  });

  it('rejects when the database is gone, so that callers can fail closed', async () => {
    const { schema, drop } = randomSchema('dcg_throttle');
    drops.push(drop);
    const outage = await postgresOutage();
    const limits = await openSharedLimits({ pool: pool(outage.url), schema, timeoutMs: 2000 });
    const throttle = sharedFailureThrottle(limits, 'login');
    expect(await throttle.wait(['account:ada'])).toBe(0);
    await outage.cut();
    await expect(throttle.wait(['account:ada'])).rejects.toThrow();
    await expect(throttle.failed(['account:ada'])).rejects.toThrow();
  });
});
