import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from './open-postgres';

describe.skipIf(!(await postgresAvailable()))('openPostgres', () => {
  const { schema, drop } = randomSchema('storage_pool');
  afterAll(drop);

  it('gives every store of the process one pool per target, ended by the last close', async () => {
    const a = openPostgres({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2 });
    const b = openPostgres({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 5 });
    const other = openPostgres({ connectionString: TEST_DATABASE_URL, schema: 'public' });
    expect(b.pool).toBe(a.pool);
    expect(other.pool).not.toBe(a.pool);
    expect(a.pool.options.max).toBe(5);
    await a.close();
    await a.close();
    const { rows } = await sql<{ search_path: string }>`SHOW search_path`.execute(b.db);
    expect(rows[0]?.search_path).toBe(schema);
    await b.close();
    expect(a.pool.ended).toBe(true);
    await other.close();
    const reopened = openPostgres({ connectionString: TEST_DATABASE_URL, schema });
    expect(reopened.pool).not.toBe(a.pool);
    await reopened.close();
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => openPostgres({ connectionString: TEST_DATABASE_URL, schema: 'x; DROP' })).toThrow(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });
});
