import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { startGovernanceApi } from './server';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
const dir = mkdtempSync(join(tmpdir(), 'governance-pg-'));
afterAll(async () => {
  if (available) await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)('governance-api on PostgreSQL (DATABASE_URL)', () => {
  const start = () =>
    startGovernanceApi({
      config: { ...testConfig, storage: { postgres: { schema } } },
      dataDir: dir,
      databaseUrl: TEST_DATABASE_URL,
      demo: true,
      logger: createLogger('test', { level: 'silent' }),
    });

  it('migrates at start-up, stores results durably and keeps the last one current across a restart', async () => {
    const first = await start();
    expect(await (await request(`${first.url}/ready`)).json()).toMatchObject({
      ready: true,
      storage: 'postgres',
    });
    await request(`${first.url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'pg-passive', name: 'PG', resourceType: 'dataproduct', trigger: 'passive' },
    });
    const contract = 'urn:dmb:cmp:pg:0:port';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(
          `${first.url}/v1/computational-governance/policies/pg-passive/evaluation-results?environment=production`,
          {
            key: KEYS.guardian,
            body: [
              {
                resource: { id: contract, descriptor: '' },
                result: {
                  satisfiesPolicy: i % 3 !== 0,
                  details: { results: { root: [{ key: `k${i}`, compliant: true }] } },
                },
              },
            ],
          },
        ).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const last = answers.map((a) => a.body).reduce((a, b) => (a.seq > b.seq ? a : b));
    await first.close();

    const second = await start();
    try {
      const compliance = await (
        await request(
          `${second.url}/v1/marketplace/data-contracts/${encodeURIComponent(contract)}/compliance?environment=production`,
        )
      ).json();
      expect(compliance).toMatchObject({
        status: last.status,
        evaluatedAt: last.receivedAt,
        policyId: 'pg-passive',
      });
      const history = await (
        await request(
          `${second.url}/v1/computational-governance/data-contracts/${encodeURIComponent(contract)}/evaluation-results?limit=50`,
          { key: KEYS.reader },
        )
      ).json();
      expect(history.meta.pagination.total).toBe(20);
      // The demo was seeded once, by the first start.
      const instances = await (
        await request(`${second.url}/v1/marketplace/instances?environment=production`)
      ).json();
      expect(instances.data).toHaveLength(1);
      const states = instances.data[0].components
        .filter((c: { dataContract: boolean }) => c.dataContract)
        .map((c: { compliance: { status: string } }) => c.compliance.status);
      expect(states.sort()).toEqual(['compliant', 'unprocessable', 'violated']);
    } finally {
      await second.close();
    }
  });
});
