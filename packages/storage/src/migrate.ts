import { type Kysely, sql } from 'kysely';
import { StorageError } from './storage-error';
import type { StorageHandle } from './storage-handle';
import { transaction } from './transaction';

/**
 * One schema version of a component: `up` runs once, in a transaction, over the connection that
 * holds it. `dialect` tells `up` which SQL to say where the dialects differ.
 *
 * @example
 * const step: MigrationStep = {
 *   version: 1,
 *   name: 'notes table',
 *   up: (db) => db.schema.createTable('notes').addColumn('id', 'text', (c) => c.primaryKey()).execute(),
 * };
 */
export interface MigrationStep {
  version: number;
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: a migration talks to tables that are not yet typed
  up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<unknown>;
}

/**
 * The migrations of one component (`governance`, `oauth`, ...): steps numbered 1, 2, 3... and,
 * for databases written before `dcg_schema_versions` existed, `adopt`, which looks at what is
 * there and answers the version it already holds (0 when nothing).
 *
 * @example
 * const migrations: Migrations = { component: 'notes', steps: [step] };
 */
export interface Migrations {
  component: string;
  steps: ReadonlyArray<MigrationStep>;
  // biome-ignore lint/suspicious/noExplicitAny: it reads tables of older code, untyped
  adopt?(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<number>;
}

/** What {@link migrate} did: versions run now and versions recorded as already there. */
export interface MigrationReport {
  applied: number[];
  adopted: number[];
}

const VERSIONS_TABLE = 'dcg_schema_versions';

/**
 * Brings `component`'s tables up to its last step. Versions live in `dcg_schema_versions
 * (component, version, name, applied_at)`; each step runs once, in its own transaction with its
 * version row (see `transaction`). On PostgreSQL an advisory lock per schema and component makes
 * processes that start together take turns (the later ones find the work done); on SQLite
 * `BEGIN IMMEDIATE` does the same, and connections of one process to one file take turns.
 *
 * @example
 * const handle = await openSqlite('./data/notes.db');
 * await migrate(handle, { component: 'notes', steps: [step] });
 */
export async function migrate<DB>(
  handle: StorageHandle<DB>,
  migrations: Migrations,
): Promise<MigrationReport> {
  const steps = [...migrations.steps].sort((a, b) => a.version - b.version);
  steps.forEach((step, index) => {
    if (step.version !== index + 1) {
      throw new StorageError(
        'invalid_config',
        `Migrations of ${migrations.component} must be numbered 1, 2, 3...: found ${step.version} at position ${index + 1}`,
      );
    }
  });
  const { dialect } = handle;
  const report: MigrationReport = { applied: [], adopted: [] };
  // biome-ignore lint/suspicious/noExplicitAny: the runner serves every schema
  const anyHandle = handle as StorageHandle<any>;
  // Each step in its own transaction; on PostgreSQL the advisory lock makes processes take turns.
  // biome-ignore lint/suspicious/noExplicitAny: the runner serves every schema
  const inTransaction = (work: (db: Kysely<any>) => Promise<void>) =>
    transaction(anyHandle, async (db) => {
      if (dialect === 'postgres') {
        const key = `dcg.migrate.${handle.schema}.${migrations.component}`;
        await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
      }
      await work(db);
    });
  // biome-ignore lint/suspicious/noExplicitAny: the runner serves every schema
  const current = async (db: Kysely<any>) => {
    const row = await db
      .selectFrom(VERSIONS_TABLE)
      .select((eb) => eb.fn.max<number | null>('version').as('version'))
      .where('component', '=', migrations.component)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  };
  // biome-ignore lint/suspicious/noExplicitAny: the runner serves every schema
  const record = (db: Kysely<any>, step: MigrationStep, name: string) =>
    db
      .insertInto(VERSIONS_TABLE)
      .values({
        component: migrations.component,
        version: step.version,
        name,
        applied_at: new Date().toISOString(),
      })
      .execute();
  try {
    await inTransaction(async (db) => {
      if (dialect === 'postgres') {
        await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(handle.schema)}`.execute(db);
      }
      await db.schema
        .createTable(VERSIONS_TABLE)
        .ifNotExists()
        .addColumn('component', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${VERSIONS_TABLE}_pkey`, ['component', 'version'])
        .execute();
      if ((await current(db)) > 0 || !migrations.adopt) return;
      const held = await migrations.adopt(db, dialect);
      for (const step of steps.slice(0, held)) {
        await record(db, step, `${step.name} (adopted: written before ${VERSIONS_TABLE})`);
        report.adopted.push(step.version);
      }
    });
    for (const step of steps) {
      await inTransaction(async (db) => {
        if ((await current(db)) >= step.version) return;
        await step.up(db, dialect);
        await record(db, step, step.name);
        report.applied.push(step.version);
      });
    }
  } catch (error) {
    if (StorageError.isInstance(error)) throw error;
    throw new StorageError(
      'migration_failed',
      `Cannot migrate ${migrations.component}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return report;
}
