import Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { epoch, type OAuthStore, type StoredPayload } from './oauth-store';
import { fileKeyStorage } from './signing-keys';

/**
 * The OAuth store in one SQLite file (WAL): one table of models keyed by (model, id), with the
 * grant id, uid and user code indexed for the lookups oidc-provider makes.
 *
 * @example
 * const store = openSqliteOAuthStore('/var/lib/dcg/mcp-server/oauth.db', '/var/lib/dcg/mcp-server/oauth-keys.json');
 */
export function openSqliteOAuthStore(file: string, keysFile: string): OAuthStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS oauth_models (
      model TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      grant_id TEXT,
      uid TEXT,
      user_code TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      consumed_at INTEGER,
      PRIMARY KEY (model, id)
    );
    CREATE INDEX IF NOT EXISTS oauth_models_grant ON oauth_models (grant_id);
    CREATE INDEX IF NOT EXISTS oauth_models_uid ON oauth_models (model, uid);
    CREATE INDEX IF NOT EXISTS oauth_models_user_code ON oauth_models (model, user_code);
    CREATE INDEX IF NOT EXISTS oauth_models_expiry ON oauth_models (expires_at);
  `);
  const upsert = db.prepare(`
    INSERT INTO oauth_models (model, id, payload, grant_id, uid, user_code, created_at, expires_at, consumed_at)
    VALUES (@model, @id, @payload, @grantId, @uid, @userCode, @now, @expiresAt, NULL)
    ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
      uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`);
  const live = '(expires_at IS NULL OR expires_at > @now)';
  const findById = db.prepare(
    `SELECT payload, consumed_at FROM oauth_models WHERE model = @model AND id = @id AND ${live}`,
  );
  const findByUid = db.prepare(
    `SELECT payload, consumed_at FROM oauth_models WHERE model = @model AND uid = @uid AND ${live}`,
  );
  const findByUserCode = db.prepare(
    `SELECT payload, consumed_at FROM oauth_models WHERE model = @model AND user_code = @userCode AND ${live}`,
  );
  // Single use: only the first consume of a row marks it; oidc-provider reads `consumed` after.
  const consume = db.prepare(
    'UPDATE oauth_models SET consumed_at = @now WHERE model = @model AND id = @id AND consumed_at IS NULL',
  );
  const destroy = db.prepare('DELETE FROM oauth_models WHERE model = @model AND id = @id');
  const revokeGrant = db.prepare('DELETE FROM oauth_models WHERE grant_id = @grantId');
  const grantAlive = db.prepare(
    `SELECT 1 FROM oauth_models WHERE model = 'Grant' AND id = @id AND ${live}`,
  );
  const unusedClients = db.prepare(`
    DELETE FROM oauth_models WHERE model = 'Client' AND created_at < @before
      AND NOT EXISTS (SELECT 1 FROM oauth_models g WHERE g.model = 'Grant'
        AND json_extract(g.payload, '$.clientId') = oauth_models.id)`);
  const sweep = db.prepare(
    'DELETE FROM oauth_models WHERE expires_at IS NOT NULL AND expires_at <= @now',
  );

  // An expired record left by the sweep counts as absent: it is taken over in the same statement.
  const claim = db.prepare(`
    INSERT INTO oauth_models (model, id, payload, created_at, expires_at)
    VALUES (@model, @id, '{}', @now, @expiresAt)
    ON CONFLICT (model, id) DO UPDATE SET created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE oauth_models.expires_at IS NOT NULL AND oauth_models.expires_at <= @now`);

  const read = (row: unknown): StoredPayload | undefined => {
    if (!row) return undefined;
    const { payload, consumed_at } = row as { payload: string; consumed_at: number | null };
    const value = JSON.parse(payload) as StoredPayload;
    return consumed_at === null ? value : { ...value, consumed: consumed_at };
  };

  return {
    kind: 'sqlite',
    keys: fileKeyStorage(keysFile),
    adapter(model: string): Adapter {
      return {
        async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
          const now = epoch();
          upsert.run({
            model,
            id,
            payload: JSON.stringify(payload),
            grantId: payload.grantId ?? null,
            uid: payload.uid ?? null,
            userCode: payload.userCode ?? null,
            now,
            expiresAt: typeof expiresIn === 'number' ? now + expiresIn : null,
          });
        },
        async find(id: string) {
          return read(findById.get({ model, id, now: epoch() }));
        },
        async findByUid(uid: string) {
          return read(findByUid.get({ model, uid, now: epoch() }));
        },
        async findByUserCode(userCode: string) {
          return read(findByUserCode.get({ model, userCode, now: epoch() }));
        },
        async consume(id: string) {
          consume.run({ model, id, now: epoch() });
        },
        async destroy(id: string) {
          destroy.run({ model, id });
        },
        async revokeByGrantId(grantId: string) {
          revokeGrant.run({ grantId });
        },
      };
    },
    async grantAlive(grantId) {
      return grantAlive.get({ id: grantId, now: epoch() }) !== undefined;
    },
    async removeUnusedClients(createdBefore) {
      return unusedClients.run({ before: createdBefore }).changes;
    },
    async sweep() {
      return sweep.run({ now: epoch() }).changes;
    },
    async claimOnce(kind, id, expiresAt) {
      return claim.run({ model: kind, id, now: epoch(), expiresAt }).changes === 1;
    },
    async close() {
      db.close();
    },
  };
}
