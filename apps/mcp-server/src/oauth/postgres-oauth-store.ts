import { migrate, openPostgres } from '@dcg/storage';
import type pg from 'pg';
import { kyselyOAuthStore, type OAuthTables, tableKeyStorage } from './kysely-oauth-store';
import type { OAuthStore } from './oauth-store';
import { oauthMigrations } from './oauth-store-migrations';

/**
 * The OAuth store in PostgreSQL (one schema, created if missing), signing keys included, so that
 * any number of instances share clients, grants, tokens and keys. The statements are those of
 * the SQLite store (see `kysely-oauth-store.ts`); the pool is the process's one for this schema.
 *
 * @example
 * const store = await openPostgresOAuthStore({ connectionString: 'postgres://…', schema: 'dcg_mcp' });
 */
export async function openPostgresOAuthStore(options: {
  connectionString: string;
  schema: string;
  maxConnections?: number;
}): Promise<OAuthStore & { readonly pool: pg.Pool }> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
    throw new Error(
      `storage.postgres.schema "${options.schema}" must be a lower-case SQL identifier`,
    );
  }
  const handle = openPostgres<OAuthTables>(options);
  try {
    await migrate(handle, oauthMigrations);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    ...kyselyOAuthStore(handle.db, {
      kind: 'postgres',
      keys: tableKeyStorage(handle.db),
      close: handle.close,
    }),
    // The one pool of the process: the shared rate limits and back-off count over it too.
    pool: handle.pool,
  };
}
