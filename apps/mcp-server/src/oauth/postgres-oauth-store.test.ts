import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, it } from 'vitest';
import { describeOAuthStoreConformance } from './oauth-store.conformance';
import { openPostgresOAuthStore } from './postgres-oauth-store';

const available = await postgresAvailable();
const schemas: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of schemas) await drop();
});

if (available) {
  describeOAuthStoreConformance('postgres', async () => {
    const { schema, drop } = randomSchema();
    schemas.push(drop);
    return openPostgresOAuthStore({ connectionString: TEST_DATABASE_URL, schema });
  });
} else {
  describe('OAuth store conformance: postgres', () => {
    it.skip(`PostgreSQL at ${TEST_DATABASE_URL} is not reachable`, () => undefined);
  });
}
