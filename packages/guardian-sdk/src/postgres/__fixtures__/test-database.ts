import { randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import pg from 'pg';

export { TEST_DATABASE_URL };

/** A random schema of one test file, created, and a pool; `drop` removes the schema and ends the pool. */
export async function testSchema(): Promise<{
  schema: string;
  pool: pg.Pool;
  drop: () => Promise<void>;
}> {
  const { schema, drop } = randomSchema('dcg_gsdk');
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  return {
    schema,
    pool,
    drop: async () => {
      await pool.end();
      await drop();
    },
  };
}
