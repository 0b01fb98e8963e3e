import pg from 'pg';
import { GovernanceError } from '../../errors';
import type { GovernanceStore } from '../../repositories';
import { postgresInstanceRepository } from './instance-repository';
import { POSTGRES_MIGRATIONS } from './migrations';
import { postgresPlanRepository } from './plan-repository';
import { postgresPolicyRepository } from './policy-repository';
import { postgresContext } from './postgres-context';
import { postgresResultRepository } from './result-repository';
import { postgresTemplateRepository } from './template-repository';

/**
 * Options of {@link openPostgresStore}.
 *
 * @example
 * const options: PostgresStoreOptions = { connectionString: process.env.DATABASE_URL!, schema: 'governance' };
 */
export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding the tables (created when missing); default `public`. */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Several app instances may start at once: one migrates, the others wait.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('dcg-governance-migrations'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query('SELECT version FROM schema_migrations');
    const applied = new Set((rows as Array<{ version: number }>).map((r) => r.version));
    for (const migration of POSTGRES_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await migration.backfill?.(client);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Opens the PostgreSQL governance store and runs its migrations: one repository per aggregate
 * over one pool. Evaluation results are group-committed (see `result-repository.ts`).
 *
 * @example
 * import { openPostgresStore } from '@dcg/governance/postgres';
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export async function openPostgresStore(
  options: PostgresStoreOptions,
): Promise<GovernanceStore & { readonly pool: pg.Pool }> {
  const schema = options.schema ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new GovernanceError('invalid_input', `Invalid PostgreSQL schema name: ${schema}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c search_path=${schema}`,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await migrate(pool, schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new GovernanceError(
      'storage_failure',
      `Cannot open the PostgreSQL database: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let closed = false;
  let closing: Promise<void> | undefined;
  const ctx = postgresContext(pool, () => closed);
  const { drain, ...results } = postgresResultRepository(ctx);
  return {
    kind: 'postgres',
    // The one pool of the process: the app's shared rate limits count over it too.
    pool,
    ...postgresTemplateRepository(ctx),
    ...postgresPolicyRepository(ctx),
    ...postgresPlanRepository(ctx),
    ...postgresInstanceRepository(ctx),
    ...results,
    async ping() {
      await ctx.run('answer', () => pool.query('SELECT 1'));
    },
    close() {
      closing ??= (async () => {
        // Commit what is queued or in flight before closing: nothing accepted may be dropped.
        await drain();
        closed = true;
        await pool.end();
      })();
      return closing;
    },
  };
}
