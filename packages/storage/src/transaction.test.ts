import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseNow, readJson } from './dialect-sql';
import { openPostgres } from './open-postgres';
import { openSqlite } from './open-sqlite';
import { withPgTransaction } from './pg-transaction';
import type { StorageHandle } from './storage-handle';
import { transaction, writeOnSqlite } from './transaction';

interface Tables {
  counters: { id: string; n: number };
}

async function createCounter(handle: StorageHandle<Tables>) {
  await handle.db.schema
    .createTable('counters')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await handle.db.insertInto('counters').values({ id: 'c', n: 0 }).execute();
}

// Read, wait a turn, write: lost updates or a stuck event loop show up in the final count.
const increment = (handle: StorageHandle<Tables>) =>
  transaction(handle, async (trx) => {
    const { n } = await trx
      .selectFrom('counters')
      .select('n')
      .where('id', '=', 'c')
      .$if(handle.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    await new Promise((resolve) => setImmediate(resolve));
    await trx
      .updateTable('counters')
      .set({ n: n + 1 })
      .where('id', '=', 'c')
      .execute();
  });

const count = async (handle: StorageHandle<Tables>) =>
  (await handle.db.selectFrom('counters').select('n').executeTakeFirstOrThrow()).n;

describe('transaction on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'storage-trx-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('takes turns between two connections of one process to one file, losing no update', async () => {
    const file = join(folder, 'turns.db');
    const a = await openSqlite<Tables>(file, { busyTimeoutMs: 200 });
    const b = await openSqlite<Tables>(file, { busyTimeoutMs: 200 });
    await createCounter(a);
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 ? a : b)));
    expect(await count(a)).toBe(20);
    // A synchronous batch waits for the other connection's open transaction too.
    const stmt = b.raw.prepare("UPDATE counters SET n = n + 100 WHERE id = 'c'");
    await Promise.all([increment(a), writeOnSqlite(b, () => stmt.run())]);
    expect(await count(b)).toBe(121);
    await Promise.all([a.close(), b.close()]);
  });

  it('rolls back when the work throws, passing the error on', async () => {
    const handle = await openSqlite<Tables>(':memory:');
    await createCounter(handle);
    const failure = transaction(handle, async (trx) => {
      await trx.updateTable('counters').set({ n: 5 }).execute();
      throw new Error('no');
    });
    await expect(failure).rejects.toThrow('no');
    expect(await count(handle)).toBe(0);
    await handle.close();
  });

  it('reads JSON text and the clock in milliseconds', async () => {
    const handle = await openSqlite<Tables>(':memory:');
    const { rows } = await sql<{ now: number }>`SELECT ${databaseNow('sqlite')} AS now`.execute(
      handle.db,
    );
    expect(Math.abs(Number(rows[0]!.now) - Date.now())).toBeLessThan(5_000);
    expect(readJson('{"a":[1]}')).toEqual({ a: [1] });
    expect(readJson({ a: [1] })).toEqual({ a: [1] });
    await handle.close();
  });
});

describe.skipIf(!(await postgresAvailable()))('transaction on PostgreSQL', () => {
  const { schema, drop } = randomSchema('storage2_trx');
  afterAll(drop);

  it('commits, rolls back on a throw, and reads the clock', async () => {
    const handle = openPostgres<Tables>({ connectionString: TEST_DATABASE_URL, schema });
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(handle.db);
    await createCounter(handle);
    await Promise.all(Array.from({ length: 5 }, () => increment(handle)));
    expect(await count(handle)).toBe(5);
    await expect(
      transaction(handle, async (trx) => {
        await trx.updateTable('counters').set({ n: -1 }).execute();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await count(handle)).toBe(5);
    const { rows } = await sql<{ now: string }>`SELECT ${databaseNow('postgres')} AS now`.execute(
      handle.db,
    );
    expect(Math.abs(Number(rows[0]!.now) - Date.now())).toBeLessThan(5_000);
    await handle.close();
  });

  it('withPgTransaction commits, rolls back on a throw and gives the client back', async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    try {
      await withPgTransaction(pool, async (client) => {
        await client.query(`CREATE TABLE ${schema}.raw_notes (id text PRIMARY KEY)`);
        await client.query(`INSERT INTO ${schema}.raw_notes VALUES ('kept')`);
      });
      await expect(
        withPgTransaction(pool, async (client) => {
          await client.query(`INSERT INTO ${schema}.raw_notes VALUES ('dropped')`);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      // One connection in the pool: this query runs only if both clients were released.
      const { rows } = await pool.query(`SELECT id FROM ${schema}.raw_notes ORDER BY id`);
      expect(rows).toEqual([{ id: 'kept' }]);
    } finally {
      await pool.end();
    }
  });
});
