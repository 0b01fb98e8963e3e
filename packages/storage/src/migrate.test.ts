import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Migrations, migrate } from './migrate';
import { openPostgres } from './open-postgres';
import { openSqlite } from './open-sqlite';
import type { StorageHandle } from './storage-handle';

const notes: Migrations = {
  component: 'notes',
  steps: [
    {
      version: 1,
      name: 'notes table',
      up: (db) =>
        db.schema
          .createTable('notes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('body', 'text', (c) => c.notNull())
          .execute(),
    },
    {
      version: 2,
      name: 'a first note',
      up: (db) => db.insertInto('notes').values({ id: 'n1', body: 'hello' }).execute(),
    },
  ],
};

// biome-ignore lint/suspicious/noExplicitAny: the tests read untyped tables
async function versionsOf(handle: StorageHandle<any>) {
  return (
    await handle.db
      .selectFrom('dcg_schema_versions')
      .select(['component', 'version', 'name'])
      .orderBy('version')
      .execute()
  ).map((r) => ({ ...r, version: Number(r.version) }));
}

describe('migrate on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcg-storage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each step once and records it', async () => {
    const file = join(dir, 'once.db');
    const first = await openSqlite(file);
    expect(await migrate(first, notes)).toEqual({ applied: [1, 2], adopted: [] });
    await first.close();
    const again = await openSqlite(file);
    expect(await migrate(again, notes)).toEqual({ applied: [], adopted: [] });
    expect(await versionsOf(again)).toEqual([
      { component: 'notes', version: 1, name: 'notes table' },
      { component: 'notes', version: 2, name: 'a first note' },
    ]);
    expect(
      await again.db
        .selectFrom('notes' as never)
        .selectAll()
        .execute(),
    ).toEqual([{ id: 'n1', body: 'hello' }]);
    await again.close();
  });

  it('rolls a failing step back whole, version row included', async () => {
    const handle = await openSqlite(join(dir, 'failing.db'));
    const failing: Migrations = {
      component: 'notes',
      steps: [
        notes.steps[0]!,
        {
          version: 2,
          name: 'half done',
          up: async (db) => {
            await db.insertInto('notes').values({ id: 'n1', body: 'x' }).execute();
            await sql`SELECT * FROM no_such_table`.execute(db);
          },
        },
      ],
    };
    await expect(migrate(handle, failing)).rejects.toMatchObject({ code: 'migration_failed' });
    expect((await versionsOf(handle)).map((v) => v.version)).toEqual([1]);
    expect(
      await handle.db
        .selectFrom('notes' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
    await handle.close();
  });

  it('records what adopt finds as already applied, then runs the rest', async () => {
    const handle = await openSqlite(join(dir, 'adopt.db'));
    await sql`CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)`.execute(handle.db);
    const report = await migrate(handle, {
      ...notes,
      adopt: async (db) => {
        const t = await sql`SELECT name FROM sqlite_master WHERE name = 'notes'`.execute(db);
        return t.rows.length > 0 ? 1 : 0;
      },
    });
    expect(report).toEqual({ applied: [2], adopted: [1] });
    expect((await versionsOf(handle))[0]?.name).toMatch(/adopted/);
    await handle.close();
  });

  it('refuses steps that are not numbered 1, 2, 3', async () => {
    const handle = await openSqlite(':memory:');
    await expect(
      migrate(handle, { component: 'gaps', steps: [{ ...notes.steps[0]!, version: 2 }] }),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await handle.close();
  });
});

describe.skipIf(!(await postgresAvailable()))('migrate on PostgreSQL', () => {
  const { schema, drop } = randomSchema('storage_migrate');
  afterAll(drop);

  it('runs each step once when several processes start at once', async () => {
    // Distinct connection strings: distinct pools, as in distinct processes.
    const handles = Array.from({ length: 4 }, (_, i) =>
      openPostgres({ connectionString: `${TEST_DATABASE_URL}?application_name=p${i}`, schema }),
    );
    const reports = await Promise.all(handles.map((h) => migrate(h, notes)));
    expect(reports.flatMap((r) => r.applied).sort()).toEqual([1, 2]);
    expect(await versionsOf(handles[0]!)).toEqual([
      { component: 'notes', version: 1, name: 'notes table' },
      { component: 'notes', version: 2, name: 'a first note' },
    ]);
    await Promise.all(handles.map((h) => h.close()));
  });
});
