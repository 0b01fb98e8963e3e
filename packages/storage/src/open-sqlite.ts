import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { StorageError } from './storage-error';
import type { SqliteHandle } from './storage-handle';
import { startWalCheckpointer } from './wal-checkpointer';

/**
 * Options of {@link openSqlite}.
 *
 * @example
 * const options: SqliteOptions = { synchronous: 'FULL' };
 */
export interface SqliteOptions {
  /**
   * `NORMAL` (default, WAL mode): a commit is in the WAL file before it is acknowledged, so it
   * survives a crash or `kill -9` of the process; an OS crash or power loss may lose the latest
   * ones. `FULL` also syncs the WAL to disk at each commit: power-loss safe, at the price of one
   * fsync per commit.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * Size above which the WAL file is checkpointed whole and emptied (default 64 MiB). Under
   * sustained writes passive checkpoints never catch up, and the WAL would otherwise grow forever.
   */
  walLimitBytes?: number;
  /** How long a statement waits for another process's lock; default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating) a SQLite database in WAL mode: Kysely over one better-sqlite3 connection.
 * `:memory:` opens a throw-away database.
 *
 * @example
 * const handle = await openSqlite<MyTables>('./data/app.db', { synchronous: 'NORMAL' });
 * await handle.db.selectFrom('things').selectAll().execute();
 * await handle.close();
 */
export async function openSqlite<DB>(
  path: string,
  options: SqliteOptions = {},
): Promise<SqliteHandle<DB>> {
  let raw: Database.Database | undefined;
  let checkpointer: { close(): Promise<void> } | undefined;
  try {
    raw = new Database(path);
    raw.pragma('journal_mode = WAL');
    raw.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
    raw.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    if (raw.pragma('journal_mode', { simple: true }) === 'wal') {
      // Checkpoints run in a worker thread (see wal-checkpointer.ts), never inside a commit.
      // Measured against the plain setting (wal_autocheckpoint = 1000 with journal_size_limit,
      // no worker), bench/submissions.ts of governance-api, SQLite NORMAL, run back to back on
      // 2026-11-28: at 32 connections 4,219 and 5,586 submissions/s with the worker against
      // 2,528 and 3,139 without; at 2 connections 447–475 µs of server time per submission
      // against 547–625. The automatic checkpoint runs inside a commit, on the event loop.
      raw.pragma('wal_autocheckpoint = 0');
      checkpointer = await startWalCheckpointer(path, 200, options.walLimitBytes);
    }
  } catch (error) {
    await checkpointer?.close();
    raw?.close();
    throw new StorageError(
      'open_failed',
      `Cannot open the SQLite database ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const connection = raw;
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: withStatementCache(connection) }),
  });
  let closing: Promise<void> | undefined;
  return {
    dialect: 'sqlite',
    db,
    raw: connection,
    path,
    close() {
      closing ??= (async () => {
        // Kysely's destroy closes the connection.
        await db.destroy();
        await checkpointer?.close();
      })();
      return closing;
    },
  };
}

/** Statements kept prepared per connection; past this many the cache starts again. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely's SQLite driver sees it, with its statements prepared once per SQL
 * text: the driver prepares every query anew, which measured as the largest single cost of a
 * repeated marketplace search (bench/marketplace-search.ts of governance-api, CPU profile: 133 of
 * 1,548 ms in `prepare`). A statement still iterating (a streamed query) is busy and cannot run
 * again until it ends, so another is prepared for that call.
 */
function withStatementCache(connection: Database.Database) {
  const prepared = new Map<string, Database.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      const cached = prepared.get(sql);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = connection.prepare(sql);
      if (cached === undefined) {
        if (prepared.size >= STATEMENT_CACHE_SIZE) prepared.clear();
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}
