import {
  databaseNow,
  type Migrations,
  readJson,
  type StorageHandle,
  transaction,
} from '@dcg/storage';
import { type ColumnType, type ExpressionBuilder, type Kysely, sql } from 'kysely';
import {
  type EmbeddingJob,
  type EmbeddingStore,
  type StoredEmbedding,
  supersededJob,
  vectorFromBytes,
  vectorToBytes,
} from '../embedding-store';
import { MarketplaceSearchError } from '../errors';

type Dialect = 'sqlite' | 'postgres';
/** JSON: TEXT in SQLite (answered as text), JSONB in PostgreSQL (answered parsed). */
type JsonColumn<T> = ColumnType<string | T, string, string>;
/** Milliseconds: INTEGER in SQLite, BIGINT in PostgreSQL (which pg answers as text). */
type MsColumn = ColumnType<number | string, number, number>;

/** The tables of the embedding store, as both dialects hold them. */
export interface EmbeddingTables {
  marketplace_embeddings: {
    environment: string;
    system_id: string;
    model: string;
    dimensions: number;
    text_hash: string;
    vector: Buffer;
    embedded_at: string;
  };
  marketplace_embedding_jobs: {
    id: string;
    environment: string;
    status: string;
    started_at: string;
    document: JsonColumn<EmbeddingJob>;
  };
  marketplace_embedding_leases: {
    environment: string;
    job_id: string;
    owner: string;
    expires_at: MsColumn;
  };
}

/**
 * The tables (version 1). `IF NOT EXISTS`, because databases written before the migration runner
 * have them already. Dialect differences: the types of bytes and JSON.
 *
 * @example
 * await migrate(handle, embeddingMigrations);
 */
export const embeddingMigrations: Migrations = {
  component: 'marketplace-embeddings',
  steps: [
    {
      version: 1,
      name: 'embeddings, jobs and leases',
      async up(db: Kysely<EmbeddingTables>, dialect: Dialect) {
        const [bytes, jsonType] = dialect === 'postgres' ? ['bytea', 'jsonb'] : ['blob', 'text'];
        await db.schema
          .createTable('marketplace_embeddings')
          .ifNotExists()
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('system_id', 'text', (c) => c.notNull())
          .addColumn('model', 'text', (c) => c.notNull())
          .addColumn('dimensions', 'integer', (c) => c.notNull())
          .addColumn('text_hash', 'text', (c) => c.notNull())
          .addColumn('vector', sql.raw(bytes), (c) => c.notNull())
          .addColumn('embedded_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('marketplace_embeddings_pkey', [
            'model',
            'environment',
            'system_id',
          ])
          .execute();
        await db.schema
          .createIndex('marketplace_embeddings_instance')
          .ifNotExists()
          .on('marketplace_embeddings')
          .columns(['environment', 'system_id'])
          .execute();
        await db.schema
          .createTable('marketplace_embedding_jobs')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('document', sql.raw(jsonType), (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('marketplace_embedding_jobs_env')
          .ifNotExists()
          .on('marketplace_embedding_jobs')
          .columns(['environment', 'status', 'started_at'])
          .execute();
        await db.schema
          .createTable('marketplace_embedding_leases')
          .ifNotExists()
          .addColumn('environment', 'text', (c) => c.primaryKey())
          .addColumn('job_id', 'text', (c) => c.notNull())
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
  ],
};

/**
 * The embedding store over either database, written once. Dialect differences: the database
 * clock (@dcg/storage `databaseNow`), how a transaction takes the write lock (@dcg/storage
 * `transaction`: SQLite `BEGIN IMMEDIATE` locks the file; here PostgreSQL `FOR UPDATE` locks the
 * lease row), and how JSON comes back (`readJson`).
 *
 * @example
 * const store = kyselyEmbeddingStore(handle);
 */
export function kyselyEmbeddingStore(handle: StorageHandle<EmbeddingTables>): EmbeddingStore {
  const { db, dialect: kind } = handle;
  // Database time: every process compares leases on one clock.
  const nowMs = databaseNow(kind);
  const guard =
    <A extends unknown[], R>(what: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (cause) {
        throw new MarketplaceSearchError('store_failed', `embedding store: ${what} failed`, {
          cause,
        });
      }
    };
  // A process renews or releases a lease only while it holds it.
  const heldBy =
    (environment: string, owner: string) =>
    (eb: ExpressionBuilder<EmbeddingTables, 'marketplace_embedding_leases'>) =>
      eb.and({ environment, owner });
  const jobRow = (job: EmbeddingJob) => ({
    id: job.id,
    environment: job.environment,
    status: job.status,
    started_at: job.startedAt,
    document: JSON.stringify(job),
  });
  // What changes when a job moves on: its status and its document.
  const jobChange = (job: EmbeddingJob) => ({ status: job.status, document: JSON.stringify(job) });
  const saveJob = (trx: Kysely<EmbeddingTables>, job: EmbeddingJob) =>
    trx
      .insertInto('marketplace_embedding_jobs')
      .values(jobRow(job))
      .onConflict((oc) => oc.column('id').doUpdateSet(jobChange(job)))
      .execute();
  const readJob = async (trx: Kysely<EmbeddingTables>, id: string) => {
    const row = await trx
      .selectFrom('marketplace_embedding_jobs')
      .select('document')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? readJson<EmbeddingJob>(row.document) : null;
  };

  return {
    kind,
    putEmbeddings: guard('put', async (rows: readonly StoredEmbedding[]) => {
      if (rows.length === 0) return;
      await transaction(handle, async (trx) => {
        for (let i = 0; i < rows.length; i += 500) {
          await trx
            .insertInto('marketplace_embeddings')
            .values(
              rows.slice(i, i + 500).map((r) => ({
                environment: r.environment,
                system_id: r.systemId,
                model: r.model,
                dimensions: r.dimensions,
                text_hash: r.textHash,
                vector: Buffer.from(vectorToBytes(r.vector)),
                embedded_at: r.embeddedAt,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['model', 'environment', 'system_id']).doUpdateSet((eb) => ({
                dimensions: eb.ref('excluded.dimensions'),
                text_hash: eb.ref('excluded.text_hash'),
                vector: eb.ref('excluded.vector'),
                embedded_at: eb.ref('excluded.embedded_at'),
              })),
            )
            .execute();
        }
      });
    }),
    deleteEmbeddings: guard('delete', async (environment: string, systemId: string) => {
      await db
        .deleteFrom('marketplace_embeddings')
        .where('environment', '=', environment)
        .where('system_id', '=', systemId)
        .execute();
    }),
    listEmbeddings: guard('list', async (model: string, environment?: string) => {
      const rows = await db
        .selectFrom('marketplace_embeddings')
        .selectAll()
        .where('model', '=', model)
        .$if(environment !== undefined, (q) => q.where('environment', '=', environment!))
        .execute();
      return rows.map(
        (r): StoredEmbedding => ({
          environment: r.environment,
          systemId: r.system_id,
          model: r.model,
          dimensions: r.dimensions,
          textHash: r.text_hash,
          vector: vectorFromBytes(r.vector),
          embeddedAt: r.embedded_at,
        }),
      );
    }),
    countByModel: guard('count', async () => {
      const rows = await db
        .selectFrom('marketplace_embeddings')
        .select(['model', (eb) => eb.fn.countAll<number | string>().as('n')])
        .groupBy('model')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.model, Number(r.n)]));
    }),
    createJob: guard('create job', async (job: EmbeddingJob) => {
      await db.insertInto('marketplace_embedding_jobs').values(jobRow(job)).execute();
    }),
    claimJob: guard('claim job', (job: EmbeddingJob, lease: { owner: string; leaseMs: number }) =>
      transaction(handle, async (trx) => {
        const held = await trx
          .selectFrom('marketplace_embedding_leases')
          .select('job_id')
          .where('environment', '=', job.environment)
          .$if(kind === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        // Takes the lease when free, expired or already ours; a concurrent claim waits on the
        // row (or the file) and then sees the winner's live lease.
        const won = await trx
          .insertInto('marketplace_embedding_leases')
          .values({
            environment: job.environment,
            job_id: job.id,
            owner: lease.owner,
            expires_at: sql<number>`${nowMs} + ${Math.round(lease.leaseMs)}`,
          })
          .onConflict((oc) =>
            oc
              .column('environment')
              .doUpdateSet((eb) => ({
                job_id: eb.ref('excluded.job_id'),
                owner: eb.ref('excluded.owner'),
                expires_at: eb.ref('excluded.expires_at'),
              }))
              .where((eb) =>
                eb.or([
                  eb('marketplace_embedding_leases.expires_at', '<=', nowMs),
                  eb('marketplace_embedding_leases.owner', '=', eb.ref('excluded.owner')),
                ]),
              ),
          )
          .returning(nowMs.as('now'))
          .executeTakeFirst();
        if (!won) {
          const running = await trx
            .selectFrom('marketplace_embedding_leases as l')
            .innerJoin('marketplace_embedding_jobs as j', 'j.id', 'l.job_id')
            .select('j.document')
            .where('l.environment', '=', job.environment)
            .executeTakeFirst();
          // A lease without its job cannot happen (both are written in one transaction).
          if (!running) throw new Error(`the lease of ${job.environment} names no stored job`);
          return { claimed: false, job: readJson<EmbeddingJob>(running.document) };
        }
        if (held && held.job_id !== job.id) {
          const stale = await readJob(trx, held.job_id);
          if (stale?.status === 'running') {
            const at = new Date(Number(won.now)).toISOString();
            await saveJob(trx, supersededJob(stale, job.id, at));
          }
        }
        await saveJob(trx, job);
        return { claimed: true, job };
      }),
    ),
    renewJobLease: guard(
      'renew job lease',
      async (environment: string, owner: string, leaseMs: number) => {
        const { numUpdatedRows } = await db
          .updateTable('marketplace_embedding_leases')
          .set({ expires_at: sql<number>`${nowMs} + ${Math.round(leaseMs)}` })
          .where(heldBy(environment, owner))
          .executeTakeFirstOrThrow();
        return numUpdatedRows > 0n;
      },
    ),
    releaseJobLease: guard('release job lease', async (environment: string, owner: string) => {
      await db
        .deleteFrom('marketplace_embedding_leases')
        .where(heldBy(environment, owner))
        .execute();
    }),
    updateJob: guard('update job', async (job: EmbeddingJob) => {
      await db
        .updateTable('marketplace_embedding_jobs')
        .set(jobChange(job))
        .where('id', '=', job.id)
        .execute();
    }),
    getJob: guard('get job', (id: string) => readJob(db, id)),
    listJobs: guard('list jobs', async (filter: Parameters<EmbeddingStore['listJobs']>[0]) => {
      const rows = await db
        .selectFrom('marketplace_embedding_jobs')
        .select('document')
        .$if(filter.environment !== undefined, (q) =>
          q.where('environment', '=', filter.environment!),
        )
        .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.min(1000, filter.limit ?? 100))
        .execute();
      return rows.map((r) => readJson<EmbeddingJob>(r.document));
    }),
    close: handle.close,
  };
}
