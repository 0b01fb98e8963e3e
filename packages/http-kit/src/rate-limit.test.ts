import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { bearerAuth } from './bearer-auth';
import { healthRoutes } from './health';
import { rateLimit } from './rate-limit';

const KEY = 'a-valid-key-0123456789';
const OTHER_KEY = 'another-valid-key-0123456789';

function limitedApp(config: Parameters<typeof rateLimit>[0]['config']) {
  let clock = 0;
  const keys = [
    { key: KEY, name: 'ops', role: 'admin' },
    { key: OTHER_KEY, name: 'ci', role: 'admin' },
  ];
  const app = new Hono();
  app.use(rateLimit({ keys, config, now: () => clock }));
  app.route('/', healthRoutes({ ready: () => ({ ready: true }) }));
  app.get('/open', (c) => c.text('ok'));
  app.get('/closed', bearerAuth({ keys }), (c) => c.text('ok'));
  const from = (address: string, path: string, headers: Record<string, string> = {}) =>
    app.request(path, { headers }, { incoming: { socket: { remoteAddress: address } } });
  return { from, advance: (ms: number) => (clock += ms) };
}

describe('rateLimit', () => {
  it('answers 429 with Retry-After once a client address used its burst, per address', async () => {
    const { from, advance } = limitedApp({ anonymous: { requestsPerSecond: 2, burst: 3 } });
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.1', '/open')).status).toBe(200);
    const refused = await from('10.0.0.1', '/open');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Another client is not affected; the first one gets a token back after half a second.
    expect((await from('10.0.0.2', '/open')).status).toBe(200);
    advance(500);
    expect((await from('10.0.0.1', '/open')).status).toBe(200);
    expect((await from('10.0.0.1', '/open')).status).toBe(429);
  });

  it('counts an IPv6 /64 and its IPv4-mapped form as one client', async () => {
    const { from } = limitedApp({ anonymous: { requestsPerSecond: 1, burst: 2 } });
    expect((await from('2001:db8:1:2::1', '/open')).status).toBe(200);
    expect((await from('2001:db8:1:2:ffff::9', '/open')).status).toBe(200);
    expect((await from('2001:db8:1:2:abcd::7', '/open')).status).toBe(429);
    expect((await from('::ffff:10.1.1.1', '/open')).status).toBe(200);
    expect((await from('10.1.1.1', '/open')).status).toBe(200);
    expect((await from('10.1.1.1', '/open')).status).toBe(429);
  });

  it('counts requests with a valid key per key, not per address', async () => {
    const { from } = limitedApp({
      anonymous: { requestsPerSecond: 1, burst: 1 },
      authenticated: { requestsPerSecond: 1, burst: 5 },
    });
    const auth = { authorization: `Bearer ${KEY}` };
    expect((await from('10.0.0.1', '/open')).status).toBe(200);
    expect((await from('10.0.0.1', '/open')).status).toBe(429);
    for (let i = 0; i < 5; i++)
      expect((await from(`10.0.0.${i}`, '/closed', auth)).status).toBe(200);
    const refused = await from('10.0.0.9', '/closed', auth);
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/with this key/);
  });

  it('counts requests of a principal (a verified token) per principal, forged ones per address', async () => {
    let clock = 0;
    const app = new Hono();
    // A stand-in verifier: `user-<name>` tokens are valid, anything else is not.
    const principal = (c: { req: { header(name: string): string | undefined } }) =>
      /^Bearer user-(\w+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    app.use(
      rateLimit({
        keys: [],
        principal,
        config: {
          anonymous: { requestsPerSecond: 1, burst: 2 },
          authenticated: { requestsPerSecond: 1, burst: 4 },
          failedAuth: { requestsPerSecond: 1, burst: 1000 },
        },
        now: () => clock,
      }),
    );
    app.get('/mcp', (c) => (principal(c) ? c.text('ok') : c.text('no', 401)));
    const from = (address: string, token: string) =>
      app.request(
        '/mcp',
        { headers: { authorization: `Bearer ${token}` } },
        { incoming: { socket: { remoteAddress: address } } },
      );
    // Two users behind one address each have their own bucket.
    for (let i = 0; i < 4; i++) {
      expect((await from('10.0.0.1', 'user-ann')).status).toBe(200);
      expect((await from('10.0.0.1', 'user-bob')).status).toBe(200);
    }
    const refused = await from('10.0.0.1', 'user-ann');
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/from this user/);
    // Forged tokens count against the address.
    expect((await from('10.0.0.2', 'forged')).status).toBe(401);
    expect((await from('10.0.0.2', 'forged')).status).toBe(401);
    expect((await from('10.0.0.2', 'forged')).status).toBe(429);
    clock += 1000;
    expect((await from('10.0.0.1', 'user-ann')).status).toBe(200);
  });

  it('counts each end user of a key trusted for it apart, and ignores the header from other keys', async () => {
    const keys = [
      { key: KEY, name: 'mcp-server' },
      { key: OTHER_KEY, name: 'ci' },
    ];
    const app = new Hono();
    app.use(
      rateLimit({
        keys,
        endUserKeys: ['mcp-server'],
        config: { authenticated: { requestsPerSecond: 1, burst: 3 } },
        now: () => 0,
      }),
    );
    app.get('/read', (c) => c.text('ok'));
    const as = (key: string, user?: string) =>
      app.request(
        '/read',
        {
          headers: {
            authorization: `Bearer ${key}`,
            ...(user ? { 'x-dcg-end-user': user } : {}),
          },
        },
        { incoming: { socket: { remoteAddress: '10.0.0.1' } } },
      );
    for (let i = 0; i < 3; i++) expect((await as(KEY, 'ann')).status).toBe(200);
    const refused = await as(KEY, 'ann');
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/from this user/);
    // Another user of the same service is not affected, nor the service's own calls.
    for (let i = 0; i < 3; i++) expect((await as(KEY, 'bob')).status).toBe(200);
    expect((await as(KEY)).status).toBe(200);
    // A key not trusted for it cannot split its bucket by naming users.
    for (let i = 0; i < 3; i++) expect((await as(OTHER_KEY, `user-${i}`)).status).toBe(200);
    expect((await as(OTHER_KEY, 'user-9')).status).toBe(429);
  });

  it('locks out failed authentications hard, but not keys that already authenticated there', async () => {
    const { from, advance } = limitedApp({
      anonymous: { requestsPerSecond: 1000, burst: 1000 },
      failedAuth: { requestsPerSecond: 0.1, burst: 3 },
    });
    const valid = { authorization: `Bearer ${KEY}` };
    expect((await from('10.0.0.1', '/closed', valid)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(
        (await from('10.0.0.1', '/closed', { authorization: `Bearer guess-${i}` })).status,
      ).toBe(401);
    }
    const locked = await from('10.0.0.1', '/closed', { authorization: 'Bearer guess-4' });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('10');
    expect(await locked.json()).toMatchObject({ code: 'AUTH_RATE_LIMITED' });
    // A correct guess of a key never used from here is refused the same way: no oracle.
    expect(
      (await from('10.0.0.1', '/closed', { authorization: `Bearer ${OTHER_KEY}` })).status,
    ).toBe(429);
    // The key that authenticated from this address before still works; so do anonymous calls,
    // and other addresses.
    expect((await from('10.0.0.1', '/closed', valid)).status).toBe(200);
    expect((await from('10.0.0.1', '/open')).status).toBe(200);
    expect(
      (await from('10.0.0.2', '/closed', { authorization: `Bearer ${OTHER_KEY}` })).status,
    ).toBe(200);
    advance(10_000);
    expect((await from('10.0.0.1', '/closed', { authorization: 'Bearer guess-5' })).status).toBe(
      401,
    );
    expect((await from('10.0.0.1', '/closed', { authorization: 'Bearer guess-6' })).status).toBe(
      429,
    );
  });

  it('never limits the health probes, and can be switched off', async () => {
    const { from } = limitedApp({ anonymous: { requestsPerSecond: 1, burst: 1 } });
    for (let i = 0; i < 5; i++) {
      expect((await from('10.0.0.1', '/health')).status).toBe(200);
      expect((await from('10.0.0.1', '/ready')).status).toBe(200);
    }
    const off = limitedApp({ enabled: false, anonymous: { requestsPerSecond: 1, burst: 1 } });
    for (let i = 0; i < 5; i++) expect((await off.from('10.0.0.1', '/open')).status).toBe(200);
  });

  it('reads the address from X-Forwarded-For only when told to', async () => {
    const trusting = limitedApp({
      trustForwardedFor: true,
      anonymous: { requestsPerSecond: 1, burst: 1 },
    });
    const via = (client: string) => ({ 'x-forwarded-for': `203.0.113.9, ${client}` });
    expect((await trusting.from('10.0.0.1', '/open', via('198.51.100.1'))).status).toBe(200);
    expect((await trusting.from('10.0.0.1', '/open', via('198.51.100.2'))).status).toBe(200);
    expect((await trusting.from('10.0.0.1', '/open', via('198.51.100.1'))).status).toBe(429);
    const plain = limitedApp({ anonymous: { requestsPerSecond: 1, burst: 1 } });
    expect((await plain.from('10.0.0.1', '/open', via('198.51.100.1'))).status).toBe(200);
    expect((await plain.from('10.0.0.1', '/open', via('198.51.100.2'))).status).toBe(429);
  });

  it('forgets the least recently seen addresses beyond maxClients', async () => {
    const { from } = limitedApp({ maxClients: 100, anonymous: { requestsPerSecond: 1, burst: 1 } });
    expect((await from('10.0.0.1', '/open')).status).toBe(200);
    for (let i = 0; i < 100; i++) await from(`10.0.1.${i}`, '/open');
    // 10.0.0.1 was forgotten: it starts with a full bucket again (memory stays bounded).
    expect((await from('10.0.0.1', '/open')).status).toBe(200);
  });
});

describe('rateLimit configuration', () => {
  it('names a bad value', () => {
    expect(() =>
      rateLimit({ keys: [], config: { anonymous: { requestsPerSecond: 0, burst: 1 } } }),
    ).toThrow(/anonymous\.requestsPerSecond/);
  });
});
