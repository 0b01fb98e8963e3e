import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeOAuthStoreConformance, type OAuthStorage } from './oauth-store.conformance';
import { openSqliteOAuthStore } from './sqlite-oauth-store';

const dir = mkdtempSync(join(tmpdir(), 'oauth-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The table as the store created it before the migration runner (the same columns). */
const LEGACY_TABLE = `CREATE TABLE oauth_models (model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL,
  grant_id TEXT, uid TEXT, user_code TEXT, created_at INTEGER NOT NULL, expires_at INTEGER,
  consumed_at INTEGER, PRIMARY KEY (model, id))`;

/** The indexes the store of version 1 created beside the table. */
const INDEXES = `CREATE INDEX oauth_models_grant ON oauth_models (grant_id);
  CREATE INDEX oauth_models_uid ON oauth_models (model, uid);
  CREATE INDEX oauth_models_user_code ON oauth_models (model, user_code);
  CREATE INDEX oauth_models_expiry ON oauth_models (expires_at);`;

function sqliteStorage(): OAuthStorage {
  n += 1;
  const folder = join(dir, `store-${n}`);
  const file = join(folder, 'oauth.db');
  return {
    open: async () => openSqliteOAuthStore(file, join(folder, 'keys.json')),
    dump: async () =>
      [file, `${file}-wal`, `${file}-shm`]
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path).toString('latin1'))
        .join('\n'),
    writeLegacy: async (rows, version = 0) => {
      mkdirSync(folder, { recursive: true });
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.exec(LEGACY_TABLE);
      const insert = db.prepare(
        'INSERT INTO oauth_models (model, id, payload, grant_id, uid, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const row of rows) {
        const uid = typeof row.payload.uid === 'string' ? row.payload.uid : null;
        insert.run(row.model, row.id, JSON.stringify(row.payload), row.grantId ?? null, uid, 1);
      }
      if (version === 1) {
        db.exec(INDEXES);
        db.pragma('user_version = 1');
      }
      db.close();
    },
  };
}

describeOAuthStoreConformance('sqlite', sqliteStorage);

describe('SQLite OAuth store files', () => {
  it("the database and its WAL are 0600 in a 0700 folder (the key file's too), also when they existed before", async () => {
    const storage = sqliteStorage();
    await storage.writeLegacy([]);
    const folder = join(dir, `store-${n}`);
    chmodSync(folder, 0o755);
    chmodSync(join(folder, 'oauth.db'), 0o644);
    const store = await storage.open();
    await store.adapter('Session').upsert('s', { uid: 'u' }, 60);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(folder)).toBe(0o700);
    for (const name of ['oauth.db', 'oauth.db-wal', 'oauth.db-shm'])
      expect(mode(join(folder, name)), name).toBe(0o600);
    await store.close();
    // A new folder and file are private from the start.
    const fresh = join(dir, 'fresh', 'deeper', 'oauth.db');
    const keysFolder = join(dir, 'keys-folder');
    mkdirSync(keysFolder, { mode: 0o755 });
    chmodSync(keysFolder, 0o755);
    const other = await openSqliteOAuthStore(fresh, join(keysFolder, 'keys.json'));
    expect(mode(keysFolder)).toBe(0o700);
    await other.adapter('Session').upsert('s', { uid: 'u' }, 60);
    expect(mode(join(dir, 'fresh', 'deeper'))).toBe(0o700);
    expect(mode(fresh)).toBe(0o600);
    expect(mode(`${fresh}-wal`)).toBe(0o600);
    await other.close();
  });

  it('refuses a folder shared with other users (sticky, like /tmp)', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    await expect(
      openSqliteOAuthStore(join(shared, 'oauth.db'), join(dir, 'k.json')),
    ).rejects.toThrow(/open to other users/);
  });
});
