import { type RawBuilder, sql } from 'kysely';

/**
 * Now in milliseconds since the epoch by the database's clock, so that the processes of several
 * machines compare leases on one clock. PostgreSQL answers a `bigint`, which pg gives as text:
 * read it with `Number()`.
 *
 * @example
 * await db.updateTable('leases').set({ expires_at: sql`${databaseNow(handle.dialect)} + 5000` }).execute();
 */
export function databaseNow(dialect: 'sqlite' | 'postgres'): RawBuilder<number | string> {
  return dialect === 'sqlite'
    ? sql`CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER)`
    : sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
}

/**
 * A JSON column's value (an object or an array) as the driver answers it: text on SQLite (parsed here), already parsed
 * by pg on PostgreSQL (`json`/`jsonb`).
 *
 * @example
 * const job = readJson<Job>(row.document);
 */
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
