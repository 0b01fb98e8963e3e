import type pg from 'pg';
import { GovernanceError } from '../../errors';

/**
 * What each PostgreSQL repository shares: the pool, one way to run a query (a closed store and a
 * driver failure read the same in every aggregate) and explicit transactions.
 *
 * @example
 * const rows = await ctx.run('read a plan', () => ctx.pool.query('SELECT 1'));
 */
export interface PostgresContext {
  readonly pool: pg.Pool;
  run<T>(what: string, fn: () => Promise<T>): Promise<T>;
  /** Throws `storage_failure` once the store is closed. */
  assertOpen(): void;
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

/**
 * A context over a pool; `isClosed` tells whether the store was closed.
 *
 * @example
 * const ctx = postgresContext(pool, () => closed);
 */
export function postgresContext(pool: pg.Pool, isClosed: () => boolean): PostgresContext {
  const assertOpen = () => {
    if (isClosed()) throw new GovernanceError('storage_failure', 'The store is closed');
  };
  return {
    pool,
    assertOpen,
    async run(what, fn) {
      assertOpen();
      try {
        return await fn();
      } catch (error) {
        if (GovernanceError.isInstance(error)) throw error;
        if ((error as { code?: string }).code === '22021') {
          // A NUL character in a lookup key: no stored row can match it.
          throw new GovernanceError('invalid_input', 'Text must not contain the NUL character', {
            cause: error,
          });
        }
        throw new GovernanceError('storage_failure', `PostgreSQL failed to ${what}`, {
          cause: error,
        });
      }
    },
    async transaction(fn) {
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
    },
  };
}
