import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll } from 'vitest';
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
