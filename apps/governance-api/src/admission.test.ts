import { createLogger } from '@dcg/http-kit';
import { holdRequests, probeLatency, temporaryDirs } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

// Issue 21 item 15: the probes answer at once while admission control holds the app at capacity.

const dirs = temporaryDirs('governance-admission-');
afterAll(() => dirs.removeAll());

describe('governance-api admission control', () => {
  let api: RunningGovernanceApi;
  beforeAll(async () => {
    api = await startGovernanceApi({
      config: {
        ...testConfig,
        admission: { maxInFlight: 2, maxQueued: 2, retryAfterSeconds: 2 },
      },
      dataDir: dirs.make(),
      logger: createLogger('admission-test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 503 with Retry-After beyond the line, and /health, /ready and /metrics meanwhile', async () => {
    const held = holdRequests(`${api.url}/v1/computational-governance/policies`, 4, {
      headers: { authorization: `Bearer ${KEYS.admin}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await fetch(`${api.url}/v1/marketplace/instances`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ status: 503, code: 'OVERLOADED' });

    for (const path of ['/health', '/ready']) {
      const { statuses, max } = await probeLatency(`${api.url}${path}`, 10);
      expect(statuses.every((s) => s === 200)).toBe(true);
      // Far below the wait of a queued request; generous for a loaded test machine.
      expect(max).toBeLessThan(500);
    }
    const metrics = await fetch(`${api.url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^http_admission_in_flight\{[^}]*\} 2$/m);
    expect(text).toMatch(/^http_admission_queued\{[^}]*\} 2$/m);
    expect(text).toMatch(/^http_admission_refused_total\{[^}]*reason="queue-full"[^}]*\} 1$/m);

    held.release();
    const answers = await held.answers;
    // Each held request was worked on in its turn (its body `{}` is no policy: 4xx, not 503).
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect((await fetch(`${api.url}/v1/marketplace/instances`)).status).toBe(200);
  });
});
