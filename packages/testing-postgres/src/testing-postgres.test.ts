import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresAvailable } from './postgres-available';
import { randomSchema } from './random-schema';
import { TEST_DATABASE_URL } from './test-database-url';

const available = await postgresAvailable();

describe('randomSchema', () => {
  it('gives a new safe name each time and refuses a prefix that is not an identifier', () => {
    const names = new Set(Array.from({ length: 50 }, () => randomSchema('dcg_x').schema));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^dcg_x_[0-9a-f]{16}$/);
    expect(randomSchema().schema).toMatch(/^dcg_test_[0-9a-f]{16}$/);
    expect(() => randomSchema('x; drop')).toThrow(/unsafe schema prefix/);
  });

  it.skipIf(!available)(
    'drops the schema with what it holds, and a schema never created',
    async () => {
      const { schema, drop } = randomSchema();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
        await client.query(`CREATE TABLE ${schema}.t (id int)`);
        await drop();
        const left = await client.query(
          'SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = $1',
          [schema],
        );
        expect(left.rows[0].n).toBe(0);
        await expect(drop()).resolves.toBeUndefined();
      } finally {
        await client.end();
      }
    },
  );
});

describe('postgresAvailable with an unreachable server', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
    vi.restoreAllMocks();
  });

  const importFresh = async () => {
    vi.stubEnv('DCG_TEST_DATABASE_URL', 'postgres://postgres@127.0.0.1:1/test');
    vi.resetModules();
    return (await import('./postgres-available')).postgresAvailable;
  };

  it('answers false and says so on the console', async () => {
    // A user's machine: neither switch that makes PostgreSQL mandatory is set (both are under CI).
    vi.stubEnv('DCG_REQUIRE_POSTGRES', undefined);
    vi.stubEnv('CI', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const check = await importFresh();
    await expect(check()).resolves.toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^SKIPPED: PostgreSQL tests, .*:1\/test is unreachable/),
    );
  });

  it('fails when DCG_REQUIRE_POSTGRES=1', async () => {
    vi.stubEnv('DCG_REQUIRE_POSTGRES', '1');
    const check = await importFresh();
    await expect(check()).rejects.toThrow(/PostgreSQL is required \(DCG_REQUIRE_POSTGRES=1\)/);
  });
});
