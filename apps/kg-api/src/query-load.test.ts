import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expensiveQuery, labelledConcepts, queryLoad } from './__fixtures__/query-load';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';
const TIMEOUT_MS = 2_000;

// Bounded and loopback only: one kg-api, 20 queries, a few seconds. The precise figures
// (/health p50/p99, query end times) come from `pnpm --filter @dcg/kg-api bench:load`.
describe('SPARQL under load', () => {
  const dirs: string[] = [];
  const apis: RunningKgApi[] = [];

  async function start(sparql: Record<string, number>): Promise<RunningKgApi> {
    const dir = await mkdtemp(join(tmpdir(), 'kg-load-'));
    dirs.push(dir);
    const api = await startKgApi({
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
      config: {
        sources: [
          {
            id: 'vocab',
            name: 'vocab',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
        ],
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
        sparql: { timeoutMs: TIMEOUT_MS, ...sparql },
      },
    });
    apis.push(api);
    const put = await fetch(`${api.url}/v1/sources/vocab/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${WRITER}` },
      body: labelledConcepts(2_000),
    });
    expect(put.status).toBe(200);
    return api;
  }

  beforeAll(async () => {});
  afterAll(async () => {
    for (const api of apis) await api.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('with 20 expensive queries in flight, /health keeps answering and every query ends by its deadline', async () => {
    const api = await start({});
    const { queries, health } = await queryLoad(api.url, 20);
    // Every query ran into its deadline (queueing included) and was told so.
    expect(queries.map((q) => `${q.status} ${q.type}`)).toEqual(
      Array(20).fill('503 urn:dcg:kg:problem:sparql-timeout'),
    );
    for (const q of queries) expect(q.ms).toBeLessThan(TIMEOUT_MS + 1_000);
    // /health was answered all along, never held until a query ended (with setTimeout(0) chains
    // it waited 7–9 s).
    expect(health.length).toBeGreaterThanOrEqual(10);
    expect(health.every((h) => h.status === 200)).toBe(true);
    expect(Math.max(...health.map((h) => h.ms))).toBeLessThan(TIMEOUT_MS / 2);
  }, 30_000);

  it('refuses queries beyond the queue at once with 503 and Retry-After', async () => {
    const api = await start({ maxConcurrent: 1, maxQueued: 1 });
    const { queries } = await queryLoad(api.url, 4);
    const busy = queries.filter((q) => q.type === 'urn:dcg:kg:problem:sparql-busy');
    expect(busy).toHaveLength(2);
    for (const q of busy) {
      expect(q.status).toBe(503);
      expect(Number(q.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(q.retryAfter)).toBeLessThanOrEqual(Math.ceil(TIMEOUT_MS / 1000));
      expect(q.ms).toBeLessThan(TIMEOUT_MS);
    }
    // The running one and the queued one both end at their deadline (the queued one while waiting).
    const timedOut = queries.filter((q) => q.type === 'urn:dcg:kg:problem:sparql-timeout');
    expect(timedOut).toHaveLength(2);
    // Once a slot is free, a light query gets through.
    const light = await fetch(
      `${api.url}/v1/graph/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`,
    );
    expect(light.status).toBe(200);
    expect(expensiveQuery(1)).not.toBe(expensiveQuery(2));
  }, 30_000);
});
