import Database from 'better-sqlite3';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { sqliteInstanceRepository } from './instance-repository';
import { SQLITE_MIGRATIONS } from './migrations';
import { sqlitePlanRepository } from './plan-repository';
import { sqlitePolicyRepository } from './policy-repository';
import { sqliteResultRepository } from './result-repository';
import { sqliteContext } from './sqlite-context';
import { sqliteTemplateRepository } from './template-repository';
import { startWalCheckpointer } from './wal-checkpointer';

/**
 * Options of {@link openSqliteStore}.
 *
 * @example
 * const options: SqliteStoreOptions = { file: '/var/lib/dcg/governance.db', synchronous: 'FULL' };
 */
export interface SqliteStoreOptions {
  /** Path of the database file (`:memory:` for a throw-away store). */
  file: string;
  /**
   * `NORMAL` (default, WAL mode): a commit is in the WAL file before it is acknowledged, so it
   * survives a crash or `kill -9` of the process; an OS crash or power loss may lose the latest
   * ones. `FULL` also syncs the WAL to disk at each (group) commit: power-loss safe, at the price
   * of one fsync per commit.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * Size above which the WAL file is checkpointed whole and emptied (default 64 MiB). Under
   * sustained writes passive checkpoints never catch up, and the WAL would otherwise grow forever.
   */
  walLimitBytes?: number;
}

function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    ),
  );
  for (const migration of SQLITE_MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      migration.backfill?.(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
}

/**
 * Opens (and creates or migrates) the SQLite governance store: one file in WAL mode, one
 * repository per aggregate over one connection. Evaluation results are group-committed: those
 * that arrive together share one transaction, and each is acknowledged after its commit.
 *
 * @example
 * import { openSqliteStore } from '@dcg/governance/sqlite';
 * const store = await openSqliteStore({ file: './data/governance.db' });
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<GovernanceStore> {
  let db: Database.Database | undefined;
  let checkpointer: { close(): Promise<void> } | undefined;
  try {
    db = new Database(options.file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
    migrate(db);
    if (db.pragma('journal_mode', { simple: true }) === 'wal') {
      // Checkpoints run in a worker thread (see wal-checkpointer.ts), never inside a commit.
      db.pragma('wal_autocheckpoint = 0');
      checkpointer = await startWalCheckpointer(options.file, 200, options.walLimitBytes);
    }
  } catch (error) {
    await checkpointer?.close();
    db?.close();
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the SQLite database ${options.file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const connection = db;
  let closed = false;
  let closing: Promise<void> | undefined;
  const ctx = sqliteContext(connection, () => closed);
  const results = sqliteResultRepository(ctx);
  const { drain, ...resultRepository } = results;
  return {
    kind: 'sqlite',
    ...sqliteTemplateRepository(ctx),
    ...sqlitePolicyRepository(ctx),
    ...sqlitePlanRepository(ctx),
    ...sqliteInstanceRepository(ctx),
    ...resultRepository,
    async ping() {
      ctx.run('answer', () => connection.prepare('SELECT 1').get());
    },
    close() {
      closing ??= (async () => {
        // Commit what is queued before closing: nothing accepted may be dropped.
        await drain();
        closed = true;
        connection.close();
        await checkpointer?.close();
      })();
      return closing;
    },
  };
}
