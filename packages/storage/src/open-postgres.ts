import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { StorageError } from './storage-error';
import type { PostgresHandle } from './storage-handle';

/**
 * Where to connect. Two stores with the same `connectionString` and `schema` share one pool.
 *
 * @example
 * const target: PostgresTarget = { connectionString: process.env.DATABASE_URL!, schema: 'governance' };
 */
export interface PostgresTarget {
  connectionString: string;
  /** Schema holding the tables (`search_path`); default `public`. Created by `migrate`. */
  schema?: string;
  /** Pool size; default 10. When stores ask for different sizes, the pool takes the largest. */
  maxConnections?: number;
}

interface PoolEntry {
  readonly pool: pg.Pool;
  readonly db: Kysely<unknown>;
  references: number;
}

// One pool per process and connection target: every store of a process that points at the
// same database and schema shares it, so the process holds one set of connections, not one per
// feature.
const pools = new Map<string, PoolEntry>();

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A handle on the process's pool for `target` (created on first use). Every `openPostgres` needs
 * its own `close()`; the pool ends when the last handle closes.
 *
 * @example
 * const handle = openPostgres<MyTables>(process.env.DATABASE_URL!);
 * await handle.db.selectFrom('things').selectAll().execute();
 * await handle.close();
 */
export function openPostgres<DB>(target: string | PostgresTarget): PostgresHandle<DB> {
  const options = typeof target === 'string' ? { connectionString: target } : target;
  const schema = options.schema ?? 'public';
  if (!identifier.test(schema)) {
    throw new StorageError('invalid_config', `Invalid PostgreSQL schema name: ${schema}`);
  }
  const max = options.maxConnections ?? 10;
  const key = `${options.connectionString}\u0000${schema}`;
  let entry = pools.get(key);
  if (entry) {
    entry.pool.options.max = Math.max(entry.pool.options.max, max);
  } else {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max,
      options: `-c search_path=${schema}`,
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    entry = {
      pool,
      db: new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }),
      references: 0,
    };
    pools.set(key, entry);
  }
  entry.references += 1;
  const shared = entry;
  let closing: Promise<void> | undefined;
  return {
    dialect: 'postgres',
    db: shared.db as Kysely<DB>,
    pool: shared.pool,
    schema,
    close() {
      closing ??= (async () => {
        shared.references -= 1;
        if (shared.references > 0) return;
        if (pools.get(key) === shared) pools.delete(key);
        // Kysely's destroy ends the pool.
        await shared.db.destroy();
      })();
      return closing;
    },
  };
}
