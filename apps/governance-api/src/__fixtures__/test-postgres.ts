import pg from 'pg';

/** Connection string of the test PostgreSQL (CI runs one at 127.0.0.1:5432). */
export const TEST_DATABASE_URL =
  process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the test PostgreSQL answers; skips visibly when not, fails when `DCG_REQUIRE_POSTGRES=1`.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.DCG_REQUIRE_POSTGRES === '1') {
      throw new Error(
        `PostgreSQL is required (DCG_REQUIRE_POSTGRES=1) but ${TEST_DATABASE_URL} is unreachable`,
        { cause: error },
      );
    }
    console.warn(`SKIPPED: governance-api PostgreSQL tests, ${TEST_DATABASE_URL} is unreachable`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops a test schema. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
