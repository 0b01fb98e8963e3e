import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, createLogger } from '@dcg/http-kit';
import { msUntilIdleSocketClosed, startFailure, temporaryDirs } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { DEMO_GUARDIAN_KEY_FILE } from './demo';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

// Issue 9, items 20–23 as governance-api answers them on a real socket.

const logger = createLogger('http-limits-test', { level: 'silent' });
const dirs = temporaryDirs('governance-limits-');
const tempDir = dirs.make;
afterAll(() => dirs.removeAll());

/** Opens an event stream and resolves once its `ready` event arrived. */
async function openStream(url: string, key: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/marketplace/events`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  if (response.status !== 200) return { response, close: () => controller.abort(), ended: null };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
      return 'ended';
    } catch {
      return 'aborted';
    }
  })();
  return { response, close: () => controller.abort(), ended };
}

describe('governance-api limits and headers', () => {
  let api: RunningGovernanceApi;
  beforeAll(async () => {
    api = await startGovernanceApi({
      config: {
        ...testConfig,
        limits: { maxEventStreamsPerKey: 2 },
        rateLimit: { anonymous: { requestsPerSecond: 1, burst: 20 } },
        server: { headersTimeoutMs: 500 },
      },
      dataDir: tempDir(),
      logger,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('sends security headers on JSON, problems, the API reference and the marketplace pages', async () => {
    for (const path of [
      '/',
      '/v1/computational-governance/policies',
      '/nowhere',
      '/openapi.json',
    ]) {
      const response = await request(`${api.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      expect(response.headers.get('content-security-policy'), path).toContain(
        "frame-ancestors 'none'",
      );
    }
    const docs = await request(`${api.url}/docs`);
    // The reference is rendered on the server: no script may run, only its hashed stylesheet.
    expect(docs.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(docs.headers.get('content-security-policy')).not.toContain('script-src');
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await request(`${api.url}/marketplace`);
    // The page's own policy (one hashed stylesheet) is kept, and framing is refused.
    expect(page.headers.get('content-security-policy')).toMatch(/style-src 'sha256-/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('limits anonymous requests per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await request(`${api.url}/v1/marketplace/instances`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(22);
    // The probes are never limited.
    expect((await request(`${api.url}/health`)).status).toBe(200);
    expect((await request(`${api.url}/ready`)).status).toBe(200);
  });

  it('caps the event streams of one key (429), frees the slot when one closes', async () => {
    const first = await openStream(api.url, KEYS.reader);
    const second = await openStream(api.url, KEYS.reader);
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    const third = await openStream(api.url, KEYS.reader);
    expect(third.response.status).toBe(429);
    expect(third.response.headers.get('retry-after')).toBe('15');
    expect((await third.response.json()).code).toBe('TOO_MANY_STREAMS');
    // Another key has its own streams.
    const other = await openStream(api.url, KEYS.guardian);
    expect(other.response.status).toBe(200);
    first.close();
    await first.ended;
    let again = await openStream(api.url, KEYS.reader);
    for (let i = 0; i < 20 && again.response.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openStream(api.url, KEYS.reader);
    }
    expect(again.response.status).toBe(200);
    for (const stream of [second, other, again]) stream.close();
  });

  it('disconnects a client that sends nothing (server.headersTimeoutMs)', async () => {
    expect(await msUntilIdleSocketClosed(api.url)).toBeLessThan(3_000);
  });
});

describe('governance-api failed authentications', () => {
  let api: RunningGovernanceApi;
  beforeAll(async () => {
    api = await startGovernanceApi({
      config: { ...testConfig, rateLimit: { failedAuth: { requestsPerSecond: 0.01, burst: 5 } } },
      dataDir: tempDir(),
      logger,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('locks out a client guessing keys (429 with Retry-After), not the keys that work from there', async () => {
    // The admin key authenticated from this address before the guessing.
    const known = await request(`${api.url}/v1/provisioning/plans`, { key: KEYS.admin });
    expect(known.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const guess = await request(`${api.url}/v1/provisioning/plans`, {
        key: `guess-${i}-0123456789abcdef`,
      });
      statuses.push(guess.status);
      if (guess.status === 429) {
        expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await guess.json()).code).toBe('AUTH_RATE_LIMITED');
      }
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    // A valid key never used from this address is refused too: a lucky guess learns nothing.
    const coordinator = await request(`${api.url}/v1/provisioning/plans`, {
      key: KEYS.coordinator,
    });
    expect(coordinator.status).toBe(429);
    expect((await request(`${api.url}/v1/provisioning/plans`, { key: KEYS.admin })).status).toBe(
      200,
    );
  });
});

describe('governance-api stop', () => {
  it('ends open event streams and stops without waiting for the shutdown deadline', async () => {
    const api = await startGovernanceApi({
      config: { ...testConfig, server: { shutdownTimeoutMs: 20_000 } },
      dataDir: tempDir(),
      logger,
    });
    const stream = await openStream(api.url, KEYS.reader);
    const started = performance.now();
    await api.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await stream.ended).toBe('ended');
  });
});

describe('governance-api in production', () => {
  it('has no development key: without configured keys it refuses to start, saying how to configure them', async () => {
    const failure = await startFailure(
      startGovernanceApi({
        dataDir: tempDir(),
        logger,
        env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' },
      }),
    );
    expect(ConfigError.isInstance(failure)).toBe(true);
    expect((failure as ConfigError).message).toMatch(/auth\.apiKeys: no API key is configured/);
    expect((failure as ConfigError).message).toMatch(/role: platform-admin/);
  });

  it.each(['Production', 'prod'])(
    'treats NODE_ENV=%s as production: no development key',
    async (value) => {
      const failure = await startFailure(
        startGovernanceApi({ dataDir: tempDir(), logger, env: { NODE_ENV: value } }),
      );
      expect((failure as ConfigError).message).toMatch(/auth\.apiKeys: no API key is configured/);
    },
  );

  it('with the demo on, neither writes nor accepts the demo guardian key', async () => {
    const dataDir = tempDir();
    const fresh = tempDir();
    // A key left by an earlier development run of the same data folder.
    const leftover = 'a-demo-guardian-key-left-from-development';
    writeFileSync(join(dataDir, DEMO_GUARDIAN_KEY_FILE), `${leftover}\n`);
    for (const [dir, key] of [
      [dataDir, leftover],
      [fresh, undefined],
    ] as const) {
      const api = await startGovernanceApi({
        config: testConfig,
        dataDir: dir,
        demo: true,
        logger,
        env: { NODE_ENV: 'Production' },
      });
      try {
        if (key) {
          const refused = await request(`${api.url}/v1/infrastructure-templates/x`, { key });
          expect(refused.status).toBe(401);
          expect(readFileSync(join(dir, DEMO_GUARDIAN_KEY_FILE), 'utf8').trim()).toBe(leftover);
        } else {
          expect(existsSync(join(dir, DEMO_GUARDIAN_KEY_FILE))).toBe(false);
        }
      } finally {
        await api.close();
      }
    }
  });

  it('starts with configured keys and makes no development key', async () => {
    const api = await startGovernanceApi({
      config: testConfig,
      dataDir: tempDir(),
      logger,
      env: { NODE_ENV: 'production' },
    });
    expect(api.developmentKey).toBeUndefined();
    await api.close();
  });
});
