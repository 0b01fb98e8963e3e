import { migrate, openPostgres, type PostgresHandle, StorageError } from '@dcg/storage';
import type pg from 'pg';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { governanceMigrations } from '../governance-migrations';
import type { GovernanceTables } from '../governance-tables';
import { instanceRepository } from '../instance-repository';
import { planRepository } from '../plan-repository';
import { policyRepository } from '../policy-repository';
import { storeContext } from '../store-context';
import { templateRepository } from '../template-repository';
import { postgresContext } from './postgres-context';
import { postgresResultRepository } from './result-repository';

/**
 * Options of {@link openPostgresStore}.
 *
 * @example
 * const options: PostgresStoreOptions = { connectionString: process.env.DATABASE_URL!, schema: 'governance' };
 */
export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

/**
 * Opens the PostgreSQL governance store and runs its migrations: one repository per aggregate
 * over one pool. Evaluation results are group-committed (see `result-repository.ts`).
 *
 * @example
 * import { openPostgresStore } from '@dcg/governance/postgres';
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export async function openPostgresStore(
  options: PostgresStoreOptions,
): Promise<GovernanceStore & { readonly pool: pg.Pool }> {
  let handle: PostgresHandle<GovernanceTables>;
  try {
    // The process's pool for this database and schema, shared with its other stores.
    handle = openPostgres<GovernanceTables>({
      connectionString: options.connectionString,
      schema: options.schema ?? 'public',
      maxConnections: options.maxConnections ?? 10,
    });
  } catch (error) {
    if (StorageError.isInstance(error) && error.code === 'invalid_config') {
      throw new GovernanceError('invalid_input', error.message, { cause: error });
    }
    throw error;
  }
  try {
    await migrate(handle, governanceMigrations(handle));
  } catch (error) {
    await handle.close();
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the PostgreSQL database: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const { pool } = handle;
  let closed = false;
  let closing: Promise<void> | undefined;
  const ctx = postgresContext(pool, () => closed);
  const store = storeContext(handle, () => closed);
  const { drain, ...results } = postgresResultRepository(ctx);
  return {
    kind: 'postgres',
    // The one pool of the process: the app's shared rate limits count over it too.
    pool,
    ...templateRepository(store),
    ...policyRepository(store),
    ...planRepository(store),
    ...instanceRepository(store),
    ...results,
    async ping() {
      await ctx.run('answer', () => pool.query('SELECT 1'));
    },
    close() {
      closing ??= (async () => {
        // Commit what is queued or in flight before closing: nothing accepted may be dropped.
        await drain();
        closed = true;
        await handle.close();
      })();
      return closing;
    },
  };
}
