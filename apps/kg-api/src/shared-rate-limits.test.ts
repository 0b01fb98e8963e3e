import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningKgApi, startKgApi } from './server';

const available = await postgresAvailable();
const logger = createLogger('test', { level: 'silent' });
const KEY = 'kg-writer-key-0123456789';

describe.skipIf(!available)(
  'two kg-api instances on one PostgreSQL share their rate limits',
  () => {
    const { schema, drop } = randomSchema('dcg_kg_limits');
    const dir = mkdtempSync(join(tmpdir(), 'kg-limits-'));
    const apis: RunningKgApi[] = [];
    beforeAll(async () => {
      for (const name of ['a', 'b']) {
        apis.push(
          await startKgApi({
            dataDir: join(dir, name),
            databaseUrl: TEST_DATABASE_URL,
            logger,
            config: {
              auth: { apiKeys: [{ name: 'writer', key: KEY }] },
              storage: { postgres: { schema } },
              rateLimit: {
                anonymous: { requestsPerSecond: 0.01, burst: 6 },
                authenticated: { requestsPerSecond: 0.01, burst: 20 },
              },
            },
          }),
        );
      }
    });
    afterAll(async () => {
      for (const api of apis) await api.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the (N+1)th anonymous request across both instances answers 429 with Retry-After', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await fetch(`${apis[i % 2]!.url}/v1/sources`)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      for (const api of apis) {
        const refused = await fetch(`${api.url}/v1/sources`);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
      }
    });

    it('many simultaneous requests with one key on both instances: never more 200s than its budget', async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          fetch(`${apis[i % 2]!.url}/v1/sources`, { headers: { authorization: `Bearer ${KEY}` } }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    });
  },
);
