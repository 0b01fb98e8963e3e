import type { Adapter, AdapterPayload } from 'oidc-provider';
import pg from 'pg';
import {
  fromStoredPayload,
  isCredentialModel,
  storedId,
  toStoredPayload,
} from './credential-hashing';
import {
  epoch,
  OAUTH_STORE_SCHEMA_VERSION,
  type OAuthStore,
  type StoredPayload,
} from './oauth-store';
import { reuseDetected } from './reuse-detection';
import type { SigningKeys } from './signing-keys';

/**
 * The OAuth store in PostgreSQL (one schema, created if missing): the same table as the SQLite
 * store, plus the signing keys, so that any number of instances share clients, grants, tokens and
 * keys. Codes and tokens are keyed by their hash; `consume` is one `UPDATE … WHERE consumed_at IS
 * NULL RETURNING`, so of concurrent uses on any number of instances exactly one wins.
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
  });
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    // One instance creates the schema at a time.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`dcg-mcp-oauth:${s}`]);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${s}.oauth_models (
        model TEXT NOT NULL,
        id TEXT NOT NULL,
        payload JSONB NOT NULL,
        grant_id TEXT,
        uid TEXT,
        user_code TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        consumed_at BIGINT,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX IF NOT EXISTS oauth_models_grant ON ${s}.oauth_models (grant_id);
      CREATE INDEX IF NOT EXISTS oauth_models_uid ON ${s}.oauth_models (model, uid);
      CREATE INDEX IF NOT EXISTS oauth_models_user_code ON ${s}.oauth_models (model, user_code);
      CREATE INDEX IF NOT EXISTS oauth_models_expiry ON ${s}.oauth_models (expires_at);
      CREATE TABLE IF NOT EXISTS ${s}.oauth_keys (id INT PRIMARY KEY CHECK (id = 1), body JSONB NOT NULL, newest_kid TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${s}.oauth_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL);
    `);
    await migrate(client, s);
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`dcg-mcp-oauth:${s}`]);
    client.release();
  } catch (error) {
    // Closing the connection frees the advisory lock it may hold.
    client.release(true);
    await pool.end();
    throw error;
  }
  const live = '(expires_at IS NULL OR expires_at > $3)';
  const read = (
    model: string,
    id: string | undefined,
    rows: { payload: StoredPayload; consumed_at: string | null }[],
  ): StoredPayload | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    const value = id === undefined ? row.payload : fromStoredPayload(model, id, row.payload);
    return row.consumed_at === null ? value : { ...value, consumed: Number(row.consumed_at) };
  };
  return {
    kind: 'postgres',
    // The one pool of the process: the shared rate limits and back-off count over it too.
    pool,
    keys: {
      async read() {
        const { rows } = await pool.query(`SELECT body FROM ${s}.oauth_keys WHERE id = 1`);
        return rows[0]?.body as SigningKeys | undefined;
      },
      async replace(previous, next) {
        const newest = next.jwks.keys[0]!.kid;
        if (previous === undefined) {
          const { rowCount } = await pool.query(
            `INSERT INTO ${s}.oauth_keys (id, body, newest_kid) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
            [JSON.stringify(next), newest],
          );
          return rowCount === 1;
        }
        const { rowCount } = await pool.query(
          `UPDATE ${s}.oauth_keys SET body = $1, newest_kid = $2 WHERE id = 1 AND newest_kid = $3`,
          [JSON.stringify(next), newest, previous.jwks.keys[0]?.kid ?? ''],
        );
        return rowCount === 1;
      },
    },
    adapter(model: string): Adapter {
      return {
        async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
          const now = epoch();
          await pool.query(
            `INSERT INTO ${s}.oauth_models (model, id, payload, grant_id, uid, user_code, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
               uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
            [
              model,
              storedId(model, id),
              JSON.stringify(toStoredPayload(model, payload)),
              payload.grantId ?? null,
              payload.uid ?? null,
              payload.userCode ?? null,
              now,
              typeof expiresIn === 'number' ? now + expiresIn : null,
            ],
          );
        },
        async find(id: string) {
          const { rows } = await pool.query(
            `SELECT payload, consumed_at FROM ${s}.oauth_models WHERE model = $1 AND id = $2 AND ${live}`,
            [model, storedId(model, id), epoch()],
          );
          return read(model, id, rows);
        },
        async findByUid(uid: string) {
          const { rows } = await pool.query(
            `SELECT payload, consumed_at FROM ${s}.oauth_models WHERE model = $1 AND uid = $2 AND ${live}`,
            [model, uid, epoch()],
          );
          return read(model, undefined, rows);
        },
        async findByUserCode(userCode: string) {
          const { rows } = await pool.query(
            `SELECT payload, consumed_at FROM ${s}.oauth_models WHERE model = $1 AND user_code = $2 AND ${live}`,
            [model, userCode, epoch()],
          );
          return read(model, undefined, rows);
        },
        async consume(id: string) {
          const key = storedId(model, id);
          // Concurrent updates of one row queue on its lock; the later ones then see it consumed.
          const { rowCount } = await pool.query(
            `UPDATE ${s}.oauth_models SET consumed_at = $3 WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING 1`,
            [model, key, epoch()],
          );
          if (rowCount === 1) return;
          // Lost: a reuse. Revoke every row of the grant and the grant itself, in one statement.
          await pool.query(
            `DELETE FROM ${s}.oauth_models m
               USING (SELECT grant_id FROM ${s}.oauth_models WHERE model = $1 AND id = $2) g
               WHERE m.grant_id = g.grant_id OR (m.model = 'Grant' AND m.id = g.grant_id)`,
            [model, key],
          );
          throw reuseDetected(model);
        },
        async destroy(id: string) {
          await pool.query(`DELETE FROM ${s}.oauth_models WHERE model = $1 AND id = $2`, [
            model,
            storedId(model, id),
          ]);
        },
        async revokeByGrantId(grantId: string) {
          await pool.query(`DELETE FROM ${s}.oauth_models WHERE grant_id = $1`, [grantId]);
        },
      };
    },
    async grantAlive(grantId) {
      const { rowCount } = await pool.query(
        `SELECT 1 FROM ${s}.oauth_models WHERE model = 'Grant' AND id = $1 AND (expires_at IS NULL OR expires_at > $2)`,
        [grantId, epoch()],
      );
      return rowCount === 1;
    },
    async removeUnusedClients(createdBefore) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${s}.oauth_models c WHERE c.model = 'Client' AND c.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM ${s}.oauth_models g WHERE g.model = 'Grant' AND g.payload->>'clientId' = c.id)`,
        [createdBefore],
      );
      return rowCount ?? 0;
    },
    async sweep() {
      const { rowCount } = await pool.query(
        `DELETE FROM ${s}.oauth_models WHERE expires_at IS NOT NULL AND expires_at <= $1`,
        [epoch()],
      );
      return rowCount ?? 0;
    },
    async claimOnce(kind, id, expiresAt) {
      // An expired record left by the sweep counts as absent: it is taken over in the same statement.
      const { rowCount } = await pool.query(
        `INSERT INTO ${s}.oauth_models (model, id, payload, created_at, expires_at)
         VALUES ($1, $2, '{}', $3, $4)
         ON CONFLICT (model, id) DO UPDATE SET created_at = excluded.created_at, expires_at = excluded.expires_at
           WHERE ${s}.oauth_models.expires_at IS NOT NULL AND ${s}.oauth_models.expires_at <= $3`,
        [kind, id, epoch(), expiresAt],
      );
      return rowCount === 1;
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * Brings a schema written by an older version up to date, once (the caller holds the schema's
 * advisory lock), in one transaction: version 1 stores codes and tokens under their hash, without
 * the value in the payload, and registered clients' secrets hashed.
 */
async function migrate(client: pg.PoolClient, s: string): Promise<void> {
  const { rows } = await client.query(`SELECT version FROM ${s}.oauth_schema WHERE id = 1`);
  if ((rows[0]?.version ?? 0) >= OAUTH_STORE_SCHEMA_VERSION) return;
  await client.query('BEGIN');
  try {
    const old = await client.query(`SELECT model, id, payload FROM ${s}.oauth_models`);
    for (const row of old.rows as { model: string; id: string; payload: StoredPayload }[]) {
      if (!isCredentialModel(row.model) && row.model !== 'Client') continue;
      await client.query(
        `UPDATE ${s}.oauth_models SET id = $3, payload = $4 WHERE model = $1 AND id = $2`,
        [
          row.model,
          row.id,
          storedId(row.model, row.id),
          JSON.stringify(toStoredPayload(row.model, row.payload)),
        ],
      );
    }
    await client.query(
      `INSERT INTO ${s}.oauth_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
      [OAUTH_STORE_SCHEMA_VERSION],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
