/** What {@link withPgTransaction} needs of a client: `pg.PoolClient` or `pg.Client`. */
export interface PgQueryable {
  query(text: string): Promise<unknown>;
}

/**
 * Runs `fn` between `BEGIN` and `COMMIT` on a raw pg client (`ROLLBACK` when it throws, the
 * error passed on). For code that holds its own client; Kysely stores use `transaction`.
 *
 * @example
 * const client = await pool.connect();
 * try {
 *   await withPgTransaction(client, () => client.query('INSERT INTO notes VALUES ($1)', ['n1']));
 * } finally {
 *   client.release();
 * }
 */
export async function withPgTransaction<T>(client: PgQueryable, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const out = await fn();
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
