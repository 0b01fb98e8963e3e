import type Database from 'better-sqlite3';
import { GovernanceError } from '../../errors';

/**
 * What each SQLite repository shares: the connection and one way to run a statement, so a closed
 * store and a driver failure read the same in every aggregate.
 *
 * @example
 * const row = ctx.run('read a plan', () => ctx.db.prepare('SELECT 1').get());
 */
export interface SqliteContext {
  readonly db: Database.Database;
  /** Runs `fn`; refuses once the store is closed and reports driver errors as `storage_failure`. */
  run<T>(what: string, fn: () => T): T;
  /** Throws `storage_failure` once the store is closed. */
  assertOpen(): void;
}

/**
 * A context over an open connection; `isClosed` tells whether the store was closed.
 *
 * @example
 * const ctx = sqliteContext(db, () => closed);
 */
export function sqliteContext(db: Database.Database, isClosed: () => boolean): SqliteContext {
  const assertOpen = () => {
    if (isClosed()) throw new GovernanceError('storage_failure', 'The store is closed');
  };
  return {
    db,
    assertOpen,
    run(what, fn) {
      assertOpen();
      try {
        return fn();
      } catch (error) {
        if (GovernanceError.isInstance(error)) throw error;
        throw new GovernanceError('storage_failure', `SQLite failed to ${what}`, { cause: error });
      }
    },
  };
}
