import { openPostgres, type PostgresHandle, StorageError } from '@dcg/storage';
import type pg from 'pg';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { governanceStore } from '../governance-store';
import type { GovernanceTables } from '../governance-tables';

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
 * over the process's pool for this database and schema (shared with its other stores, see
 * `openPostgres` of `@dcg/storage`). Evaluation results are group-committed.
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
  const store = await governanceStore(handle, 'Cannot open the PostgreSQL database');
  // The process's pool: the app's shared rate limits count over it too.
  return Object.assign(store, { pool: handle.pool });
}
