import { openSqlite } from '@dcg/storage';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { governanceStore } from '../governance-store';
import type { GovernanceTables } from '../governance-tables';

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
  const failure = `Cannot open the SQLite database ${options.file}`;
  let handle: Awaited<ReturnType<typeof openSqlite<GovernanceTables>>>;
  try {
    handle = await openSqlite<GovernanceTables>(options.file, {
      ...(options.synchronous ? { synchronous: options.synchronous } : {}),
      ...(options.walLimitBytes ? { walLimitBytes: options.walLimitBytes } : {}),
    });
  } catch (error) {
    throw new GovernanceError('storage_failure', `${failure}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return governanceStore(handle, failure);
}
