import { migrate, openSqlite, type SqliteHandle } from '@dcg/storage';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { governanceMigrations } from '../governance-migrations';
import type { GovernanceTables } from '../governance-tables';
import { instanceRepository } from '../instance-repository';
import { planRepository } from '../plan-repository';
import { policyRepository } from '../policy-repository';
import { storeContext } from '../store-context';
import { templateRepository } from '../template-repository';
import { sqliteResultRepository } from './result-repository';
import { sqliteContext } from './sqlite-context';

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
  let handle: SqliteHandle<GovernanceTables> | undefined;
  try {
    handle = await openSqlite(options.file, {
      ...(options.synchronous ? { synchronous: options.synchronous } : {}),
      ...(options.walLimitBytes ? { walLimitBytes: options.walLimitBytes } : {}),
    });
    await migrate(handle, governanceMigrations(handle));
  } catch (error) {
    await handle?.close();
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the SQLite database ${options.file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const opened = handle;
  const connection = opened.raw;
  let closed = false;
  let closing: Promise<void> | undefined;
  const ctx = sqliteContext(connection, () => closed);
  const store = storeContext(opened, () => closed);
  const results = sqliteResultRepository(ctx);
  const { drain, ...resultRepository } = results;
  return {
    kind: 'sqlite',
    ...templateRepository(store),
    ...policyRepository(store),
    ...planRepository(store),
    ...instanceRepository(store),
    ...resultRepository,
    async ping() {
      ctx.run('answer', () => connection.prepare('SELECT 1').get());
    },
    close() {
      closing ??= (async () => {
        // Commit what is queued before closing: nothing accepted may be dropped.
        await drain();
        closed = true;
        await opened.close();
      })();
      return closing;
    },
  };
}
