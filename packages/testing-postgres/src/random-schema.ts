import pg from 'pg';
import { TEST_DATABASE_URL } from './test-database-url';

/** A schema of one test run: its name (not yet created) and a function that drops it. */
export interface RandomSchema {
  readonly schema: string;
  readonly drop: () => Promise<void>;
}

// The name goes into SQL text (schemas cannot be bound parameters), so the prefix is checked.
const safePrefix = /^[a-z_][a-z0-9_]{0,40}$/;

/**
 * A fresh random schema name, `<prefix>_<16 hex digits>`, so that tests running at the same time
 * never share tables; `drop` removes the schema and all it holds (it may not exist).
 *
 * @example
 * const { schema, drop } = randomSchema();
 * afterAll(drop);
 */
export function randomSchema(prefix = 'dcg_test'): RandomSchema {
  if (!safePrefix.test(prefix)) throw new Error(`unsafe schema prefix: ${JSON.stringify(prefix)}`);
  const schema = `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
