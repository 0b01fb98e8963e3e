import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './open-sqlite';

describe('openSqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcg-storage-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens in WAL mode with the chosen durability, and leaves no WAL behind at close', async () => {
    const file = join(dir, 'wal.db');
    const handle = await openSqlite<{ t: { id: string } }>(file, { synchronous: 'FULL' });
    expect(handle.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    // FULL is 2; the main connection never checkpoints (the worker does).
    expect(handle.raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(handle.raw.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await sql`CREATE TABLE t (id TEXT)`.execute(handle.db);
    await handle.db.insertInto('t').values({ id: 'a' }).execute();
    expect(existsSync(`${file}-wal`)).toBe(true);
    await handle.close();
    await handle.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = await openSqlite<{ t: { id: string } }>(file);
    expect(await again.db.selectFrom('t').selectAll().execute()).toEqual([{ id: 'a' }]);
    expect(again.raw.pragma('synchronous', { simple: true })).toBe(1);
    await again.close();
  });

  it('reuses prepared statements: each run sees its own parameters and the rows written before it', async () => {
    const handle = await openSqlite<{ t: { id: string } }>(join(dir, 'reuse.db'));
    await sql`CREATE TABLE t (id TEXT)`.execute(handle.db);
    const find = (id: string) =>
      handle.db.selectFrom('t').select('id').where('id', '=', id).execute();
    for (const id of ['a', 'b', 'c']) {
      expect(await find(id)).toEqual([]);
      await handle.db.insertInto('t').values({ id }).execute();
      expect(await find(id)).toEqual([{ id }]);
    }
    const streamed: string[] = [];
    for await (const row of handle.db.selectFrom('t').select('id').orderBy('id').stream()) {
      streamed.push(row.id);
    }
    expect(streamed).toEqual(['a', 'b', 'c']);
    expect(await find('b')).toEqual([{ id: 'b' }]);
    await handle.close();
  });

  it('reports a file it cannot open as open_failed, naming it', async () => {
    const file = join(dir, 'no-such-dir', 'x.db');
    await expect(openSqlite(file)).rejects.toMatchObject({
      code: 'open_failed',
      message: expect.stringContaining(file),
    });
  });
});
