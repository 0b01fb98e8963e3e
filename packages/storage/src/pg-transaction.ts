import type pg from 'pg';

/**
 * Runs `fn` on a client of `pool` between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws, the
 * error passed on), then gives the client back. For code that speaks to pg itself; Kysely stores
 * use `transaction`.
 *
 * @example
 * await withPgTransaction(pool, async (client) => {
 *   await client.query('INSERT INTO notes (id) VALUES ($1)', ['n1']);
 * });
 */
export async function withPgTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
