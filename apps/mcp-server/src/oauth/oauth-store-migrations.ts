import type { Migrations } from '@dcg/storage';
import { type Kysely, sql } from 'kysely';
import { isCredentialModel, storedId, toStoredPayload } from './credential-hashing';
import type { OAuthTables } from './kysely-oauth-store';
import type { StoredPayload } from './oauth-store';

/**
 * Version 1: the tables. `IF NOT EXISTS`, because databases written before the migration runner
 * have them already. The one dialect difference is the type of JSON columns.
 */
export async function createOAuthTables(
  db: Kysely<OAuthTables>,
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text';
  await db.schema
    .createTable('oauth_models')
    .ifNotExists()
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', jsonType, (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oauth_models_pkey', ['model', 'id'])
    .execute();
  const index = (name: string, columns: (keyof OAuthTables['oauth_models'])[]) =>
    db.schema.createIndex(name).ifNotExists().on('oauth_models').columns(columns).execute();
  await index('oauth_models_grant', ['grant_id']);
  await index('oauth_models_uid', ['model', 'uid']);
  await index('oauth_models_user_code', ['model', 'user_code']);
  await index('oauth_models_expiry', ['expires_at']);
  await db.schema
    .createTable('oauth_keys')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('body', jsonType, (c) => c.notNull())
    .addColumn('newest_kid', 'text', (c) => c.notNull())
    .execute();
}

/**
 * Version 2: codes and tokens stored under their hash, without the value in the payload, and
 * registered clients' secrets hashed. Answers how many rows it rewrote.
 */
export async function hashStoredCredentials(db: Kysely<OAuthTables>): Promise<number> {
  const rows = await db.selectFrom('oauth_models').select(['model', 'id', 'payload']).execute();
  let migrated = 0;
  for (const row of rows) {
    if (!isCredentialModel(row.model) && row.model !== 'Client') continue;
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    await db
      .updateTable('oauth_models')
      .set({
        id: storedId(row.model, row.id),
        payload: JSON.stringify(toStoredPayload(row.model, payload as StoredPayload)),
      })
      .where('model', '=', row.model)
      .where('id', '=', row.id)
      .execute();
    migrated += 1;
  }
  return migrated;
}

/**
 * The migrations of the OAuth store. A database written before the migration runner marked the
 * hashing its own way (SQLite `user_version` 1, PostgreSQL `oauth_schema.version` 1): such a one
 * holds both versions. Any other runs version 1 (`IF NOT EXISTS`: it may hold the tables already)
 * and then version 2.
 *
 * @example
 * await migrate(handle, oauthMigrations);
 */
export const oauthMigrations: Migrations = {
  component: 'oauth',
  steps: [
    { version: 1, name: 'oauth tables', up: createOAuthTables },
    {
      version: 2,
      name: 'codes, tokens and client secrets stored as hashes',
      up: (db) => hashStoredCredentials(db),
    },
  ],
  adopt: async (db, dialect) => ((await hashedByEarlierVersion(db, dialect)) ? 2 : 0),
};

/** Whether the store's own marker from before the migration runner says "hashed". */
async function hashedByEarlierVersion(
  db: Kysely<OAuthTables>,
  dialect: 'sqlite' | 'postgres',
): Promise<boolean> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(db);
    return (rows[0]?.user_version ?? 0) >= 1;
  }
  const table = await sql<{
    name: string | null;
  }>`SELECT to_regclass('oauth_schema')::text AS name`.execute(db);
  if (!table.rows[0]?.name) return false;
  const { rows } = await sql<{
    version: number;
  }>`SELECT version FROM oauth_schema WHERE id = 1`.execute(db);
  return (rows[0]?.version ?? 0) >= 1;
}
