import { openPostgres } from '@dcg/storage';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEmbeddingStoreConformance } from './embedding-store-conformance.testkit';
import { openPostgresEmbeddingStore } from './postgres-embedding-store';

const available = await postgresAvailable();
const { schema, drop } = randomSchema('kysely_emb');
afterAll(async () => {
  if (available) await drop();
});

describeEmbeddingStoreConformance(
  'postgres',
  () => openPostgresEmbeddingStore({ connectionString: TEST_DATABASE_URL, schema }),
  { skip: !available },
);

describe.skipIf(!available)('PostgreSQL embedding store pool', () => {
  it('is the pool of the process for its database and schema (shared with e.g. the governance store)', async () => {
    const store = await openPostgresEmbeddingStore({ connectionString: TEST_DATABASE_URL, schema });
    const other = openPostgres({ connectionString: TEST_DATABASE_URL, schema });
    try {
      // A new pool would hold no connection yet; this one holds those the store's migration used.
      expect(other.pool.totalCount).toBeGreaterThan(0);
      await store.putEmbeddings([]);
      expect(await store.countByModel()).toBeTypeOf('object');
    } finally {
      await other.close();
      await store.close();
    }
    // The pool ended with the last reference: opening again makes a new one, empty.
    const again = openPostgres({ connectionString: TEST_DATABASE_URL, schema });
    expect(again.pool.totalCount).toBe(0);
    await again.close();
  });
});
