import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { kyselyOAuthStore, type OAuthTables, tableKeyStorage } from './kysely-oauth-store';
import type { OAuthStore } from './oauth-store';
import { createOAuthTables, hashStoredCredentials } from './oauth-store-migrations';

/**
 * The OAuth store in PostgreSQL (one schema, created if missing), signing keys included, so that
 * any number of instances share clients, grants, tokens and keys. The statements are those of
 * the SQLite store (see `kysely-oauth-store.ts`).
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
  const s = options.schema;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c search_path=${s}`,
  });
  pool.on('error', () => undefined);
  const db = new Kysely<OAuthTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await db.connection().execute(async (conn) => {
      // One instance migrates at a time.
      await sql`SELECT pg_advisory_lock(hashtext(${`dcg-mcp-oauth:${s}`}))`.execute(conn);
      try {
        await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(s)}`.execute(conn);
        await conn.transaction().execute(async (trx) => {
          await createOAuthTables(trx, 'postgres');
          await hashStoredCredentials(trx, 'postgres');
          await sql`CREATE TABLE IF NOT EXISTS oauth_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL)`.execute(
            trx,
          );
          await sql`INSERT INTO oauth_schema (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = 1`.execute(
            trx,
          );
        });
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${`dcg-mcp-oauth:${s}`}))`.execute(conn);
      }
    });
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    ...kyselyOAuthStore(db, {
      kind: 'postgres',
      keys: tableKeyStorage(db),
      close: () => db.destroy(),
    }),
    // The one pool of the process: the shared rate limits and back-off count over it too.
    pool,
  };
}
