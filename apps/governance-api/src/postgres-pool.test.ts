import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { openPostgres } from '@dcg/storage';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig } from './__fixtures__/test-keys';
import { startGovernanceApi } from './server';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
const dir = mkdtempSync(join(tmpdir(), 'governance-pool-'));
afterAll(async () => {
  if (available) await drop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!available)('governance-api: one PostgreSQL pool per process', () => {
  it('holds the governance store on the process pool of its database, which other stores join', async () => {
    const api = await startGovernanceApi({
      config: { ...testConfig, storage: { postgres: { schema } } },
      dataDir: dir,
      databaseUrl: TEST_DATABASE_URL,
      logger: createLogger('test', { level: 'silent' }),
    });
    const another = openPostgres({ connectionString: TEST_DATABASE_URL, schema });
    try {
      const { pool } = api.governance.store as typeof api.governance.store & { pool: unknown };
      expect(another.pool).toBe(pool);
    } finally {
      await another.close();
      await api.close();
    }
    // The last store closed ends the pool.
    expect(another.pool.ended).toBe(true);
  });
});
