import pg from 'pg';

/** Connection string of the test PostgreSQL (CI runs one at 127.0.0.1:5432). */
export const TEST_DATABASE_URL =
  process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the test PostgreSQL answers (test helper, `@dcg/governance/testing`). When it does not,
 * tests skip with a visible message,
 * unless `DCG_REQUIRE_POSTGRES=1` (CI), where its absence is a failure.
 *
 * @example
 * const available = await postgresAvailable();
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.DCG_REQUIRE_POSTGRES === '1') {
      throw new Error(
        `PostgreSQL is required (DCG_REQUIRE_POSTGRES=1) but ${TEST_DATABASE_URL} is unreachable`,
        { cause: error },
      );
    }
    console.warn(
      `SKIPPED: PostgreSQL tests, ${TEST_DATABASE_URL} is unreachable (${(error as Error).message})`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A fresh random schema name for one test run, and a function that drops it.
 *
 * @example
 * const { schema, drop } = randomSchema(); // ... await drop();
 */
export function randomSchema(): { schema: string; drop: () => Promise<void> } {
  const schema = `dcg_test_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
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
