import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, oneAtATime, openSqlite } from '@dcg/storage';
import { kyselyOAuthStore, type OAuthTables } from './kysely-oauth-store';
import type { OAuthStore } from './oauth-store';
import { oauthMigrations } from './oauth-store-migrations';
import { fileKeyStorage } from './signing-keys';

/**
 * The OAuth store in one SQLite file (WAL), the signing keys in a file beside it. The file and its
 * WAL are 0600 in a 0700 folder; codes and tokens are keyed by their hash. Several instances may
 * share the file: single use holds across them (SQLite serialises writes).
 *
 * @example
 * const store = await openSqliteOAuthStore('/var/lib/dcg/mcp-server/oauth.db', '/var/lib/dcg/mcp-server/oauth-keys.json');
 */
export async function openSqliteOAuthStore(file: string, keysFile: string): Promise<OAuthStore> {
  privateFolder(dirname(keysFile));
  privateFiles(file);
  const handle = await openSqlite<OAuthTables>(file);
  // Deleted rows (used codes, revoked tokens, the plain values a migration replaced) are zeroed.
  handle.raw.pragma('secure_delete = ON');
  try {
    const { applied } = await migrate(handle, oauthMigrations);
    if (applied.includes(2)) {
      // Plain values may linger in free pages and old WAL frames: rewrite the file, empty the WAL.
      // In this file's turn: no other connection of the process holds its write lock meanwhile.
      await oneAtATime(handle, async () => {
        handle.raw.exec('VACUUM');
        handle.raw.pragma('wal_checkpoint(TRUNCATE)');
      });
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return kyselyOAuthStore(handle.db, {
    kind: 'sqlite',
    keys: fileKeyStorage(keysFile),
    close: handle.close,
  });
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
