import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';
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
import { fileKeyStorage } from './signing-keys';

/**
 * The OAuth store in one SQLite file (WAL): one table of models keyed by (model, id), with the
 * grant id, uid and user code indexed for the lookups oidc-provider makes. The file and its WAL
 * are 0600 in a 0700 folder; codes and tokens are keyed by their hash. Several instances may share
 * the file: single use holds across them (SQLite serialises writes).
 *
 * @example
 * const store = openSqliteOAuthStore('/var/lib/dcg/mcp-server/oauth.db', '/var/lib/dcg/mcp-server/oauth-keys.json');
 */
export function openSqliteOAuthStore(file: string, keysFile: string): OAuthStore {
  privateFolder(dirname(keysFile));
  privateFiles(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Deleted rows (used codes, revoked tokens, the plain values a migration replaced) are zeroed.
  db.pragma('secure_delete = ON');
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
  migrate(db);
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
  // Single use: only the first consume of a row marks it; `changes` tells a later one it lost.
  const consume = db.prepare(
    'UPDATE oauth_models SET consumed_at = @now WHERE model = @model AND id = @id AND consumed_at IS NULL',
  );
  const grantOf = db.prepare('SELECT grant_id FROM oauth_models WHERE model = @model AND id = @id');
  const destroy = db.prepare('DELETE FROM oauth_models WHERE model = @model AND id = @id');
  const revokeGrant = db.prepare('DELETE FROM oauth_models WHERE grant_id = @grantId');
  // Every row of the grant and the grant itself, as oidc-provider revokes on a reuse.
  const revokeReused = db.prepare(
    "DELETE FROM oauth_models WHERE grant_id = @grantId OR (model = 'Grant' AND id = @grantId)",
  );
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

  const read = (model: string, id: string | undefined, row: unknown): StoredPayload | undefined => {
    if (!row) return undefined;
    const { payload, consumed_at } = row as { payload: string; consumed_at: number | null };
    const parsed = JSON.parse(payload) as StoredPayload;
    const value = id === undefined ? parsed : fromStoredPayload(model, id, parsed);
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
            id: storedId(model, id),
            payload: JSON.stringify(toStoredPayload(model, payload)),
            grantId: payload.grantId ?? null,
            uid: payload.uid ?? null,
            userCode: payload.userCode ?? null,
            now,
            expiresAt: typeof expiresIn === 'number' ? now + expiresIn : null,
          });
        },
        async find(id: string) {
          return read(model, id, findById.get({ model, id: storedId(model, id), now: epoch() }));
        },
        async findByUid(uid: string) {
          return read(model, undefined, findByUid.get({ model, uid, now: epoch() }));
        },
        async findByUserCode(userCode: string) {
          return read(model, undefined, findByUserCode.get({ model, userCode, now: epoch() }));
        },
        async consume(id: string) {
          const key = storedId(model, id);
          if (consume.run({ model, id: key, now: epoch() }).changes === 1) return;
          const row = grantOf.get({ model, id: key }) as { grant_id: string | null } | undefined;
          if (row?.grant_id) revokeReused.run({ grantId: row.grant_id });
          throw reuseDetected(model);
        },
        async destroy(id: string) {
          destroy.run({ model, id: storedId(model, id) });
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

/**
 * Makes a folder that holds secrets private to this user: a missing one is made 0700; an existing
 * one open to others is closed to them when this user owns it, and refused when it is shared (a
 * sticky folder such as /tmp, or someone else's).
 */
function privateFolder(folder: string): void {
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stats = statSync(folder);
  if ((stats.mode & 0o077) === 0) return;
  const owned = typeof process.getuid !== 'function' || stats.uid === process.getuid();
  if (!owned || (stats.mode & 0o1000) !== 0) {
    throw new Error(
      `the folder ${folder} of the OAuth store is open to other users; use a folder of its own (mode 0700)`,
    );
  }
  chmodSync(folder, 0o700);
}

/**
 * Makes the database file (and the WAL and shared-memory files SQLite creates beside it, which take
 * its mode) 0600, in a private folder.
 */
function privateFiles(file: string): void {
  privateFolder(dirname(file));
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}

/**
 * Brings a database written by an older version up to date, once, in one transaction that takes
 * the write lock first (two instances opening one file migrate it once): version 1 stores codes
 * and tokens under their hash, without the value in the payload, and registered clients' secrets
 * hashed.
 */
function migrate(db: Database.Database): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() >= OAUTH_STORE_SCHEMA_VERSION) return;
  const rows = db.prepare('SELECT model, id, payload FROM oauth_models');
  const update = db.prepare(
    'UPDATE oauth_models SET id = @to, payload = @payload WHERE model = @model AND id = @from',
  );
  let migrated = 0;
  db.transaction(() => {
    if (version() >= OAUTH_STORE_SCHEMA_VERSION) return;
    for (const row of rows.all() as { model: string; id: string; payload: string }[]) {
      if (!isCredentialModel(row.model) && row.model !== 'Client') continue;
      migrated += 1;
      update.run({
        model: row.model,
        from: row.id,
        to: storedId(row.model, row.id),
        payload: JSON.stringify(toStoredPayload(row.model, JSON.parse(row.payload))),
      });
    }
    db.pragma(`user_version = ${OAUTH_STORE_SCHEMA_VERSION}`);
  }).immediate();
  if (migrated > 0) {
    // The plain values may linger in free pages and old WAL frames: rewrite the file, empty the WAL.
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
}
