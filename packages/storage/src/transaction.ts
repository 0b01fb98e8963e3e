import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { SqliteHandle, StorageHandle } from './storage-handle';

// Per SQLite file of this process: the tail of the tasks that take its write lock, in turn.
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier one on the same SQLite file in this process (at once on
 * PostgreSQL and for `:memory:`). A transaction holds the file's write lock across awaits; a
 * second connection of this process waiting for that lock would block the event loop in SQLite's
 * busy handler, so the holder could never finish. (Other processes wait in their own busy
 * handler.) Never nest it on one file: the inner task would wait for the outer one.
 *
 * @example
 * await oneAtATime(handle, async () => handle.dialect === 'sqlite' && handle.raw.exec('VACUUM'));
 */
export function oneAtATime<DB, T>(handle: StorageHandle<DB>, task: () => Promise<T>): Promise<T> {
  if (handle.dialect !== 'sqlite' || handle.path === ':memory:' || handle.path === '') {
    return task();
  }
  const key = resolve(handle.path);
  const run = (queues.get(key) ?? Promise.resolve()).then(task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => queues.get(key) === settled && queues.delete(key));
  return run;
}

/**
 * Runs `fn` in a transaction that may write; commits when it resolves, rolls back when it throws.
 * SQLite: `BEGIN IMMEDIATE` (a transaction that reads before it writes never fails to upgrade its
 * lock), one at a time per file in this process (see {@link oneAtATime}). PostgreSQL: `BEGIN` on
 * a connection of the pool.
 *
 * @example
 * await transaction(handle, async (trx) => {
 *   await trx.insertInto('notes').values({ id: 'n1', body: 'hello' }).execute();
 * });
 */
export function transaction<DB, T>(
  handle: StorageHandle<DB>,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return oneAtATime(handle, () =>
    handle.db.connection().execute(async (conn) => {
      await sql.raw(handle.dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN').execute(conn);
      try {
        const out = await fn(conn);
        await sql.raw('COMMIT').execute(conn);
        return out;
      } catch (error) {
        await sql
          .raw('ROLLBACK')
          .execute(conn)
          .catch(() => undefined);
        throw error;
      }
    }),
  );
}

/**
 * Runs synchronous `work` on SQLite's raw connection holding what a transaction holds: the
 * file's turn in this process and Kysely's connection, so no open transaction of the store is
 * ever joined. For hot paths that prepare their statements once (better-sqlite3's
 * `transaction(...).immediate` inside `work` gives BEGIN IMMEDIATE).
 *
 * @example
 * const insert = handle.raw.prepare('INSERT INTO notes (id, body) VALUES (?, ?)');
 * await writeOnSqlite(handle, () => insert.run('n1', 'hello'));
 */
export function writeOnSqlite<DB, T>(
  handle: SqliteHandle<DB>,
  work: (raw: Database.Database) => T,
): Promise<T> {
  return oneAtATime(handle, () => handle.db.connection().execute(async () => work(handle.raw)));
}
