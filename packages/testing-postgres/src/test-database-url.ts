/**
 * Connection string of the test PostgreSQL: `DCG_TEST_DATABASE_URL`, else the one CI runs at
 * 127.0.0.1:5432 (trust authentication, database `test`).
 *
 * @example
 * const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL });
 */
export const TEST_DATABASE_URL =
  process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
