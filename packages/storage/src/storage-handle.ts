import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type pg from 'pg';

/** What a handle of either dialect offers. */
interface OpenHandle<DB> {
  readonly db: Kysely<DB>;
  /**
   * Ends this handle's use of the database: a SQLite handle closes its connection (checkpointing
   * the WAL); a PostgreSQL handle releases its reference to the shared pool, which ends with the
   * last one. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * An open SQLite database: Kysely over one better-sqlite3 connection, and that connection for
 * what Kysely cannot say (pragmas, synchronous batches).
 *
 * @example
 * const handle = await openSqlite<MyTables>('./data/app.db');
 * await handle.db.selectFrom('things').selectAll().execute();
 */
export interface SqliteHandle<DB> extends OpenHandle<DB> {
  readonly dialect: 'sqlite';
  readonly raw: Database.Database;
  /** The file as opened (`:memory:` for a throw-away database). */
  readonly path: string;
}

/**
 * A PostgreSQL database as one store sees it: Kysely over the process's shared pool for this
 * connection target, with `search_path` set to `schema`.
 *
 * @example
 * const handle = openPostgres<MyTables>({ connectionString: url, schema: 'app' });
 * await handle.db.selectFrom('things').selectAll().execute();
 */
export interface PostgresHandle<DB> extends OpenHandle<DB> {
  readonly dialect: 'postgres';
  /** The shared pool: never `end()` it, `close()` the handle. */
  readonly pool: pg.Pool;
  readonly schema: string;
}

/** Either handle: what `migrate` and dialect-neutral stores take. */
export type StorageHandle<DB> = SqliteHandle<DB> | PostgresHandle<DB>;
