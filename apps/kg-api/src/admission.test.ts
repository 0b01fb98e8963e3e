import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { atCapacity, holdRequests } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningKgApi, startKgApi } from './server';

// Issue 21 item 15: the probes answer at once while admission control holds the app at capacity.

const QUERY = 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 1';

describe('kg-api admission control', () => {
  let dir: string;
  let api: RunningKgApi;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-admission-'));
    api = await startKgApi({
      dataDir: join(dir, 'data'),
      logger: createLogger('test', { level: 'silent' }),
      config: {
        auth: { developmentKey: false },
        admission: { maxInFlight: 2, maxQueued: 2, retryAfterSeconds: 4 },
        metrics: { requireKey: false },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After beyond the line, and /health, /ready and /metrics meanwhile', async () => {
    // SPARQL queries whose bodies arrive only on release: each holds a turn or a place in line.
    const held = holdRequests(`${api.url}/v1/graph/sparql`, 4, {
      headers: { 'content-type': 'application/sparql-query' },
      start: QUERY.slice(0, 10),
      rest: QUERY.slice(10),
    });
    const seen = await atCapacity(api.url, { inFlight: 2, queued: 2 }, () =>
      fetch(`${api.url}/v1/search?q=data`),
    );
    expect(seen.refused).toEqual({
      status: 503,
      retryAfter: '4',
      contentType: 'application/problem+json',
      body: expect.objectContaining({ status: 503, code: 'OVERLOADED' }),
    });
    expect(new Set(seen.probes.statuses)).toEqual(new Set([200]));
    // Far below the wait of a queued request; generous for a loaded test machine.
    expect(seen.probes.slowestMs).toBeLessThan(500);
    expect(seen.metrics).toEqual({ inFlight: 2, queued: 2, refusedQueueFull: 1 });

    held.release();
    // Each held query was answered in its turn.
    expect((await held.answers).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });
});
