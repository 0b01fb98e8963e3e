import pg from 'pg';
import {
  type EmbeddingJob,
  type EmbeddingStore,
  type StoredEmbedding,
  supersededJob,
  vectorFromBytes,
  vectorToBytes,
} from '../embedding-store';
import { MarketplaceSearchError } from '../errors';

/**
 * Options of {@link openPostgresEmbeddingStore}.
 *
 * @example
 * const options: PostgresEmbeddingStoreOptions = { connectionString: 'postgres://postgres@127.0.0.1/test', schema: 'public' };
 */
export interface PostgresEmbeddingStoreOptions {
  connectionString: string;
  /** Schema of the tables (created when missing). Default `public`. */
  schema?: string;
  maxConnections?: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Database time in milliseconds: every process compares leases on one clock. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * Opens (and migrates) the PostgreSQL embedding store: vectors as `bytea` (float32), jobs as
 * `jsonb`. Several processes may share it.
 *
 * @example
 * const store = await openPostgresEmbeddingStore({ connectionString: process.env.DATABASE_URL ?? '' });
 */
export async function openPostgresEmbeddingStore(
  options: PostgresEmbeddingStoreOptions,
): Promise<EmbeddingStore> {
  const schema = options.schema ?? 'public';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new MarketplaceSearchError(
      'invalid_config',
      'the schema must be a plain SQL identifier',
      { path: ['schema'] },
    );
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 5,
    options: `-c search_path=${schema}`,
  });
  pool.on('error', () => undefined);
  const fail = (what: string) => (cause: unknown) => {
    throw new MarketplaceSearchError('store_failed', `embedding store: ${what} failed`, { cause });
  };
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [
        `dcg.marketplace-search.${schema}`,
      ]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.marketplace_embeddings (
          environment text NOT NULL,
          system_id text NOT NULL,
          model text NOT NULL,
          dimensions integer NOT NULL,
          text_hash text NOT NULL,
          vector bytea NOT NULL,
          embedded_at text NOT NULL,
          PRIMARY KEY (model, environment, system_id)
        );
        CREATE INDEX IF NOT EXISTS marketplace_embeddings_instance
          ON ${quoteIdent(schema)}.marketplace_embeddings (environment, system_id);
        CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.marketplace_embedding_jobs (
          id text PRIMARY KEY,
          environment text NOT NULL,
          status text NOT NULL,
          started_at text NOT NULL,
          document jsonb NOT NULL
        );
        CREATE INDEX IF NOT EXISTS marketplace_embedding_jobs_env
          ON ${quoteIdent(schema)}.marketplace_embedding_jobs (environment, status, started_at);
        CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.marketplace_embedding_leases (
          environment text PRIMARY KEY,
          job_id text NOT NULL,
          owner text NOT NULL,
          expires_at bigint NOT NULL
        );
      `);
    } finally {
      await client
        .query('SELECT pg_advisory_unlock(hashtext($1))', [`dcg.marketplace-search.${schema}`])
        .catch(() => undefined);
      client.release();
    }
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new MarketplaceSearchError('store_failed', 'cannot open the PostgreSQL embedding store', {
      cause,
    });
  }

  const toEmbedding = (r: Record<string, unknown>): StoredEmbedding => ({
    environment: r.environment as string,
    systemId: r.system_id as string,
    model: r.model as string,
    dimensions: r.dimensions as number,
    textHash: r.text_hash as string,
    vector: vectorFromBytes(r.vector as Buffer),
    embeddedAt: r.embedded_at as string,
  });

  return {
    kind: 'postgres',
    async putEmbeddings(rows) {
      if (rows.length === 0) return;
      const client = await pool.connect().catch(fail('connect'));
      try {
        await client.query('BEGIN');
        for (let i = 0; i < rows.length; i += 500) {
          const chunk = rows.slice(i, i + 500);
          const values: unknown[] = [];
          const tuples = chunk.map((r, j) => {
            values.push(
              r.environment,
              r.systemId,
              r.model,
              r.dimensions,
              r.textHash,
              Buffer.from(vectorToBytes(r.vector)),
              r.embeddedAt,
            );
            const b = j * 7;
            return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
          });
          await client.query(
            `INSERT INTO marketplace_embeddings (environment, system_id, model, dimensions, text_hash, vector, embedded_at)
             VALUES ${tuples.join(', ')}
             ON CONFLICT (model, environment, system_id) DO UPDATE SET
               dimensions = EXCLUDED.dimensions, text_hash = EXCLUDED.text_hash,
               vector = EXCLUDED.vector, embedded_at = EXCLUDED.embedded_at`,
            values,
          );
        }
        await client.query('COMMIT');
      } catch (cause) {
        await client.query('ROLLBACK').catch(() => undefined);
        fail('put')(cause);
      } finally {
        client.release();
      }
    },
    async deleteEmbeddings(environment, systemId) {
      await pool
        .query('DELETE FROM marketplace_embeddings WHERE environment = $1 AND system_id = $2', [
          environment,
          systemId,
        ])
        .catch(fail('delete'));
    },
    async listEmbeddings(model, environment) {
      const result = await (environment === undefined
        ? pool.query('SELECT * FROM marketplace_embeddings WHERE model = $1', [model])
        : pool.query('SELECT * FROM marketplace_embeddings WHERE model = $1 AND environment = $2', [
            model,
            environment,
          ])
      ).catch(fail('list'));
      return result.rows.map(toEmbedding);
    },
    async countByModel() {
      const result = await pool
        .query('SELECT model, COUNT(*)::int AS n FROM marketplace_embeddings GROUP BY model')
        .catch(fail('count'));
      return Object.fromEntries(result.rows.map((r) => [r.model as string, r.n as number]));
    },
    async createJob(job) {
      await pool
        .query(
          'INSERT INTO marketplace_embedding_jobs (id, environment, status, started_at, document) VALUES ($1, $2, $3, $4, $5)',
          [job.id, job.environment, job.status, job.startedAt, JSON.stringify(job)],
        )
        .catch(fail('create job'));
    },
    async claimJob(job, lease) {
      const client = await pool.connect().catch(fail('connect'));
      try {
        await client.query('BEGIN');
        // Takes the lease when free, expired or already ours; a concurrent claim waits on the
        // row and then sees the winner's live lease, so only one process runs the environment.
        const taken = await client.query(
          `WITH previous AS (SELECT job_id FROM marketplace_embedding_leases WHERE environment = $1)
           INSERT INTO marketplace_embedding_leases AS l (environment, job_id, owner, expires_at)
           VALUES ($1, $2, $3, ${NOW_MS} + $4)
           ON CONFLICT (environment) DO UPDATE SET
             job_id = EXCLUDED.job_id, owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at <= ${NOW_MS} OR l.owner = EXCLUDED.owner
           RETURNING (SELECT job_id FROM previous) AS previous, ${NOW_MS} AS now`,
          [job.environment, job.id, lease.owner, Math.round(lease.leaseMs)],
        );
        const won = taken.rows[0] as { previous: string | null; now: string } | undefined;
        if (!won) {
          const held = await client.query(
            `SELECT j.document FROM marketplace_embedding_leases l
             JOIN marketplace_embedding_jobs j ON j.id = l.job_id WHERE l.environment = $1`,
            [job.environment],
          );
          await client.query('COMMIT');
          const running = held.rows[0]?.document as EmbeddingJob | undefined;
          if (running) return { claimed: false, job: running };
          // A lease without its job cannot happen (both are written in one transaction).
          throw new Error(`the lease of ${job.environment} names no stored job`);
        }
        if (won.previous !== null && won.previous !== job.id) {
          const stale = await client.query(
            `SELECT document FROM marketplace_embedding_jobs WHERE id = $1 AND status = 'running'`,
            [won.previous],
          );
          const staleJob = stale.rows[0]?.document as EmbeddingJob | undefined;
          if (staleJob) {
            const failed = supersededJob(staleJob, job.id, new Date(Number(won.now)).toISOString());
            await client.query(
              'UPDATE marketplace_embedding_jobs SET status = $1, document = $2 WHERE id = $3',
              [failed.status, JSON.stringify(failed), failed.id],
            );
          }
        }
        await client.query(
          `INSERT INTO marketplace_embedding_jobs (id, environment, status, started_at, document)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, document = EXCLUDED.document`,
          [job.id, job.environment, job.status, job.startedAt, JSON.stringify(job)],
        );
        await client.query('COMMIT');
        return { claimed: true, job };
      } catch (cause) {
        await client.query('ROLLBACK').catch(() => undefined);
        return fail('claim job')(cause);
      } finally {
        client.release();
      }
    },
    async renewJobLease(environment, owner, leaseMs) {
      const result = await pool
        .query(
          `UPDATE marketplace_embedding_leases SET expires_at = ${NOW_MS} + $3
           WHERE environment = $1 AND owner = $2`,
          [environment, owner, Math.round(leaseMs)],
        )
        .catch(fail('renew job lease'));
      return (result.rowCount ?? 0) > 0;
    },
    async releaseJobLease(environment, owner) {
      await pool
        .query('DELETE FROM marketplace_embedding_leases WHERE environment = $1 AND owner = $2', [
          environment,
          owner,
        ])
        .catch(fail('release job lease'));
    },
    async updateJob(job) {
      await pool
        .query('UPDATE marketplace_embedding_jobs SET status = $1, document = $2 WHERE id = $3', [
          job.status,
          JSON.stringify(job),
          job.id,
        ])
        .catch(fail('update job'));
    },
    async getJob(id) {
      const result = await pool
        .query('SELECT document FROM marketplace_embedding_jobs WHERE id = $1', [id])
        .catch(fail('get job'));
      return (result.rows[0]?.document as EmbeddingJob | undefined) ?? null;
    },
    async listJobs(filter) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.environment !== undefined) {
        params.push(filter.environment);
        where.push(`environment = $${params.length}`);
      }
      if (filter.status !== undefined) {
        params.push(filter.status);
        where.push(`status = $${params.length}`);
      }
      params.push(Math.min(1000, filter.limit ?? 100));
      const result = await pool
        .query(
          `SELECT document FROM marketplace_embedding_jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY started_at DESC, id DESC LIMIT $${params.length}`,
          params,
        )
        .catch(fail('list jobs'));
      return result.rows.map((r) => r.document as EmbeddingJob);
    },
    close: () => pool.end(),
  };
}
