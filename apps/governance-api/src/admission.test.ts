import { createLogger } from '@dcg/http-kit';
import { atCapacity, holdRequests, temporaryDirs } from '@dcg/http-kit/testkit';
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
    const seen = await atCapacity(api.url, { inFlight: 2, queued: 2 }, () =>
      fetch(`${api.url}/v1/marketplace/instances`),
    );
    expect(seen.refused).toEqual({
      status: 503,
      retryAfter: '2',
      contentType: 'application/problem+json',
      body: expect.objectContaining({ status: 503, code: 'OVERLOADED' }),
    });
    expect(new Set(seen.probes.statuses)).toEqual(new Set([200]));
    // Far below the wait of a queued request; generous for a loaded test machine.
    expect(seen.probes.slowestMs).toBeLessThan(500);
    expect(seen.metrics).toEqual({ inFlight: 2, queued: 2, refusedQueueFull: 1 });

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
