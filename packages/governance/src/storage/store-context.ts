import { databaseNow, readJson, type StorageHandle, transaction } from '@dcg/storage';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { GovernanceError } from '../errors';
import type { GovernanceTables } from './governance-tables';

type Db = Kysely<GovernanceTables>;

/**
 * What every repository shares: the Kysely instance, one way to run work (a closed store and a
 * driver failure read the same in every aggregate), transactions, and the few places where the
 * two dialects differ, each named here.
 *
 * @example
 * const row = await ctx.run('read a plan', () => ctx.db.selectFrom('plans').selectAll().executeTakeFirst());
 */
export interface StoreContext {
  readonly db: Db;
  /** The handle, for the dialect-specific hot paths (result-repository.ts). */
  readonly handle: StorageHandle<GovernanceTables>;
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `fn`; refuses once the store is closed and reports driver errors as `storage_failure`. */
  run<T>(what: string, fn: () => Promise<T>): Promise<T>;
  /** Throws `storage_failure` once the store is closed. */
  assertOpen(): void;
  /**
   * Runs `fn` in a transaction that may write (@dcg/storage's `transaction`: `BEGIN IMMEDIATE` on
   * SQLite, `BEGIN` on PostgreSQL).
   */
  transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
  /** A JSON column's value as stored: text on SQLite, parsed by pg on PostgreSQL. */
  readJson<T>(value: unknown): T;
  /** A boolean as the column takes it (SQLite has no booleans: 0/1). */
  bool(value: boolean): boolean | number;
  /** Now in milliseconds since the epoch, by the database's clock (leases of several machines). */
  nowMs(): RawBuilder<number | string>;
  /** `column` contains `text`, ignoring case, without LIKE's wildcards. */
  containsText(column: string, text: string): RawBuilder<boolean>;
  /** Takes a lock on `key` until the transaction ends (PostgreSQL; SQLite's writer lock suffices). */
  lockKey(trx: Db, key: string): Promise<void>;
  /** Whether `error` is a unique or primary key violation. */
  isUniqueViolation(error: unknown): boolean;
}

/**
 * A context over an open handle; `isClosed` tells whether the store was closed.
 *
 * @example
 * const ctx = storeContext(handle, () => closed);
 */
export function storeContext(
  handle: StorageHandle<GovernanceTables>,
  isClosed: () => boolean,
): StoreContext {
  const { db, dialect } = handle;
  const sqlite = dialect === 'sqlite';
  const assertOpen = () => {
    if (isClosed()) throw new GovernanceError('storage_failure', 'The store is closed');
  };
  return {
    db,
    handle,
    dialect,
    assertOpen,
    async run(what, fn) {
      assertOpen();
      try {
        return await fn();
      } catch (error) {
        if (GovernanceError.isInstance(error)) throw error;
        if ((error as { code?: string }).code === '22021') {
          // A NUL character in a lookup key: no stored row can match it.
          throw new GovernanceError('invalid_input', 'Text must not contain the NUL character', {
            cause: error,
          });
        }
        const engine = sqlite ? 'SQLite' : 'PostgreSQL';
        throw new GovernanceError('storage_failure', `${engine} failed to ${what}`, {
          cause: error,
        });
      }
    },
    transaction: (fn) => transaction(handle, fn),
    readJson,
    bool: (value) => (sqlite ? (value ? 1 : 0) : value),
    nowMs: () => databaseNow(dialect),
    containsText: (column, text) =>
      sql<boolean>`${sql.raw(sqlite ? 'instr' : 'strpos')}(lower(${sql.ref(column)}), lower(${text})) > 0`,
    async lockKey(trx, key) {
      if (!sqlite) await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    },
    isUniqueViolation: (error) => {
      const code = (error as { code?: string }).code;
      return sqlite ? code?.startsWith('SQLITE_CONSTRAINT') === true : code === '23505';
    },
  };
}
