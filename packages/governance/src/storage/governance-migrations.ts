import type { Migrations, StorageHandle } from '@dcg/storage';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { type LegacyClient, POSTGRES_MIGRATIONS } from './legacy-postgres-migrations';
import { SQLITE_MIGRATIONS } from './legacy-sqlite-migrations';

// biome-ignore lint/suspicious/noExplicitAny: migrations speak to tables before they are typed
type AnyDb = Kysely<any>;

/** The per-dialect runner's version table, before `dcg_schema_versions`. */
async function legacyVersions(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<Set<number>> {
  const exists =
    dialect === 'sqlite'
      ? await sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`.execute(
          db,
        )
      : await sql`SELECT 1 WHERE to_regclass('schema_migrations') IS NOT NULL`.execute(db);
  if (exists.rows.length === 0) return new Set();
  const { rows } = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(
    db,
  );
  return new Set(rows.map((r) => Number(r.version)));
}

/**
 * Applies the entries of the per-dialect lists that `applied` lacks, inside the transaction
 * `migrate` holds. SQLite's run on the raw connection (its backfills are synchronous), which is
 * the connection Kysely holds; PostgreSQL's through Kysely.
 */
async function applyLegacy<DB>(
  handle: StorageHandle<DB>,
  db: AnyDb,
  applied: Set<number>,
  record: boolean,
): Promise<void> {
  const now = new Date().toISOString();
  if (handle.dialect === 'sqlite') {
    for (const m of SQLITE_MIGRATIONS.filter((m) => !applied.has(m.version))) {
      handle.raw.exec(m.sql);
      m.backfill?.(handle.raw);
      if (record) {
        handle.raw
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(m.version, m.name, now);
      }
    }
    return;
  }
  const client: LegacyClient = {
    query: async (text, values) =>
      // biome-ignore lint/suspicious/noExplicitAny: the backfills name their row types
      (await db.executeQuery(CompiledQuery.raw(text, values ?? []))) as any,
  };
  for (const m of POSTGRES_MIGRATIONS.filter((m) => !applied.has(m.version))) {
    await client.query(m.sql);
    await m.backfill?.(client);
    if (record) {
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [m.version, m.name, now],
      );
    }
  }
}

/**
 * The migrations of the governance store on either dialect, as `migrate` runs them. Version 1 is
 * the schema the per-dialect lists built (SQLite 1–6, PostgreSQL 1–4; kept as they were released,
 * since databases at any of their versions exist). A database written before `dcg_schema_versions`
 * (it has `schema_migrations`) is brought to the end of its list in place and adopted as version 1.
 * New versions go below, one step for both dialects.
 *
 * @example
 * await migrate(handle, governanceMigrations(handle));
 */
export function governanceMigrations<DB>(handle: StorageHandle<DB>): Migrations {
  return {
    component: 'governance',
    async adopt(db, dialect) {
      const applied = await legacyVersions(db, dialect);
      if (applied.size === 0) return 0;
      await applyLegacy(handle, db, applied, true);
      return 1;
    },
    steps: [
      {
        version: 1,
        name: 'templates, policies, plans, instances and their indexes, evaluation results',
        up: (db) => applyLegacy(handle, db, new Set(), false),
      },
    ],
  };
}
