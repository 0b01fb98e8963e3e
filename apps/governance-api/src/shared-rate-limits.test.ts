import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const available = await postgresAvailable();
const logger = createLogger('test', { level: 'silent' });

describe.skipIf(!available)(
  'two governance-api instances on one PostgreSQL share their rate limits',
  () => {
    const { schema, drop } = randomSchema('dcg_gov_limits');
    const dir = mkdtempSync(join(tmpdir(), 'governance-limits-'));
    const apis: RunningGovernanceApi[] = [];
    beforeAll(async () => {
      for (const name of ['a', 'b']) {
        apis.push(
          await startGovernanceApi({
            dataDir: join(dir, name),
            databaseUrl: TEST_DATABASE_URL,
            logger,
            config: {
              ...testConfig,
              storage: { postgres: { schema } },
              rateLimit: { anonymous: { requestsPerSecond: 0.01, burst: 8 } },
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

    const instances = (path: string) => {
      const [a, b] = apis as [RunningGovernanceApi, RunningGovernanceApi];
      return [() => fetch(`${a.url}${path}`), () => fetch(`${b.url}${path}`)] as const;
    };

    it('the (N+1)th request across both instances answers 429 with Retry-After', async () => {
      const [a, b] = instances('/v1/marketplace/instances');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? b : a)()).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
      for (const instance of [a, b]) {
        const refused = await instance();
        expect(refused.status).toBe(429);
        expect(refused.headers.get('content-type')).toBe('application/problem+json');
        // The window is 8 / 0.01 = 800 s.
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(700);
      }
      // Probes are never limited.
      expect((await fetch(`${apis[0]!.url}/health`)).status).toBe(200);
    });

    it('keeps the counters in the app schema: 8 granted and 2 refused from one address', async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT key, points FROM ${schema}.dcg_rate_limits WHERE key LIKE 'requests-anonymous:%'`,
        );
        expect(rows).toEqual([{ key: expect.stringMatching(/^requests-anonymous:/), points: 10 }]);
      } finally {
        await client.end();
      }
    });
  },
);
