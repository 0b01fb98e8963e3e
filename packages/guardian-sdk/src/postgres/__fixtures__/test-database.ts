import pg from 'pg';

/** Connection string of the test PostgreSQL. */
export const TEST_DATABASE_URL =
  process.env.DCG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A random schema of one test file, and a pool; `drop` removes the schema and ends the pool. */
export async function testSchema(): Promise<{
  schema: string;
  pool: pg.Pool;
  drop: () => Promise<void>;
}> {
  const schema = `dcg_gsdk_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  return {
    schema,
    pool,
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    },
  };
}
