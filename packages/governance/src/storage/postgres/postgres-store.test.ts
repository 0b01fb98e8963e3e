import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import { describeStoreConformance } from '../store-conformance';
import { openPostgresStore } from './postgres-store';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from './test-database';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
afterAll(async () => {
  if (available) await drop();
});

describeStoreConformance(
  'postgres',
  () => openPostgresStore({ connectionString: TEST_DATABASE_URL, schema }),
  { skip: !available },
);

describe.skipIf(!available)('PostgreSQL store specifics', () => {
  it('migrates once when several stores open the same schema at once', async () => {
    const stores = await Promise.all(
      [1, 2, 3].map(() => openPostgresStore({ connectionString: TEST_DATABASE_URL, schema })),
    );
    await Promise.all(stores.map((s) => s.ping()));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('rejects an unsafe schema name and an unreachable server with storage errors', async () => {
    await expect(
      openPostgresStore({ connectionString: TEST_DATABASE_URL, schema: 'x; drop' }),
    ).rejects.toSatisfy((e) => GovernanceError.is(e) && e.code === 'invalid_input');
    await expect(
      openPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test' }),
    ).rejects.toSatisfy((e) => GovernanceError.is(e) && e.code === 'storage_failure');
  });
});
