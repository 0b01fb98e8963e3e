import pg from 'pg';
import { TEST_DATABASE_URL } from './test-database-url';

/**
 * Whether the test PostgreSQL answers. When it does not, tests skip with a visible message,
 * unless the run requires it (`DCG_REQUIRE_POSTGRES=1`, set by `.ci/run`, or `CI=true`), where its
 * absence is a failure.
 *
 * @example
 * const available = await postgresAvailable();
 * describe.skipIf(!available)('on PostgreSQL', () => { ... });
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
    const requiredBy =
      process.env.DCG_REQUIRE_POSTGRES === '1'
        ? 'DCG_REQUIRE_POSTGRES=1'
        : process.env.CI === 'true'
          ? 'CI=true'
          : undefined;
    if (requiredBy) {
      throw new Error(
        `PostgreSQL is required (${requiredBy}) but ${TEST_DATABASE_URL} is unreachable`,
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
