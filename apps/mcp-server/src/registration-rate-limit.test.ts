import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { describe, expect, it } from 'vitest';
import { inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { registrationRateLimit } from './registration-rate-limit';

describe('dynamic registration rate limit', () => {
  it('allows perMinute at once per address, then one more each 60/perMinute seconds', () => {
    const limit = registrationRateLimit(2);
    const t = 120_000;
    expect(limit.take('a', t)).toBeUndefined();
    expect(limit.take('a', t)).toBeUndefined();
    expect(limit.take('a', t)).toBe(30);
    expect(limit.take('b', t)).toBeUndefined();
    expect(limit.take('a', t + 20_000)).toBe(10);
    expect(limit.take('a', t + 30_000)).toBeUndefined();
    expect(limit.take('a', t + 30_000)).toBe(30);
  });

  it('forgets the least recently seen address beyond maxAddresses', () => {
    const limit = registrationRateLimit(1, 2);
    expect(limit.take('a', 0)).toBeUndefined();
    expect(limit.take('b', 0)).toBeUndefined();
    expect(limit.take('c', 0)).toBeUndefined();
    // `a` was forgotten for `c`: it starts with a full bucket again; `c` is still counted.
    expect(limit.take('a', 0)).toBeUndefined();
    expect(limit.take('c', 0)).toBe(60);
  });

  it('answers 429 with Retry-After over HTTP once the rate is used up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-server-rate-'));
    const server = await inProcessMcpServer({
      dataDir: dir,
      config: {
        oauth: {
          dynamicRegistration: { enabled: true, perMinute: 2, unusedClientTtlSeconds: 3600 },
        },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
    try {
      const register = () =>
        server.fetch(`${server.url}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            redirect_uris: ['http://127.0.0.1/cb'],
            application_type: 'native',
            token_endpoint_auth_method: 'none',
          }),
        });
      // Two registrations at once, then one each 30 s: of five quick calls three are refused.
      const responses = [];
      for (let i = 0; i < 5; i++) responses.push(await register());
      const refused = responses.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(responses.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(2);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused[0]!.json()).toMatchObject({ error: 'too_many_requests' });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
