import { migrate, openPostgres } from '@dcg/storage';
import type { EmbeddingStore } from '../embedding-store';
import { MarketplaceSearchError } from '../errors';
import {
  type EmbeddingTables,
  embeddingMigrations,
  kyselyEmbeddingStore,
} from './kysely-embedding-store';

/**
 * Options of {@link openPostgresEmbeddingStore}.
 *
 * @example
 * const options: PostgresEmbeddingStoreOptions = { connectionString: 'postgres://postgres@127.0.0.1/test', schema: 'public' };
 */
export interface PostgresEmbeddingStoreOptions {
  connectionString: string;
  /** Schema of the tables (created when missing). Default `public`. */
  schema?: string;
  maxConnections?: number;
}

/**
 * Opens (and migrates) the PostgreSQL embedding store: vectors as `bytea` (float32), jobs as
 * `jsonb`. Several processes may share it; in one process it shares the pool of every other
 * store on the same database and schema (the governance store's, in governance-api).
 *
 * @example
 * const store = await openPostgresEmbeddingStore({ connectionString: process.env.DATABASE_URL ?? '' });
 */
export async function openPostgresEmbeddingStore(
  options: PostgresEmbeddingStoreOptions,
): Promise<EmbeddingStore> {
  const schema = options.schema ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new MarketplaceSearchError(
      'invalid_config',
      'the schema must be a plain SQL identifier',
      { path: ['schema'] },
    );
  }
  const handle = openPostgres<EmbeddingTables>({
    connectionString: options.connectionString,
    schema,
    maxConnections: options.maxConnections ?? 5,
  });
  try {
    await migrate(handle, embeddingMigrations);
  } catch (cause) {
    await handle.close().catch(() => undefined);
    throw new MarketplaceSearchError('store_failed', 'cannot open the PostgreSQL embedding store', {
      cause,
    });
  }
  return kyselyEmbeddingStore(handle);
}
