import {
  databaseNow,
  type Migrations,
  readJson,
  type StorageHandle,
  transaction,
} from '@dcg/storage';
import {
  type ColumnType,
  type CreateTableBuilder,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  sql,
} from 'kysely';
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
 * A table of version 1 as `createTableIfMissing` builds it: every column NOT NULL but the key's,
 * the key either one column (declared on it) or a named constraint over several.
 */
interface TableOfVersion1 {
  name: keyof EmbeddingTables;
  /** The columns in order, with their types (a dialect's own type as raw SQL). */
  columns: Record<string, 'text' | 'integer' | 'bigint' | RawBuilder<unknown>>;
  key: string | { constraint: string; columns: string[] };
  index?: { name: string; columns: string[] };
}

/** Creates `table` and its index unless they exist (databases older than the runner have them). */
async function createTableIfMissing(db: Kysely<EmbeddingTables>, table: TableOfVersion1) {
  const { key } = table;
  let create: CreateTableBuilder<string, string> = db.schema.createTable(table.name).ifNotExists();
  for (const [column, type] of Object.entries(table.columns)) {
    create = create.addColumn(column, type, (c) => (column === key ? c.primaryKey() : c.notNull()));
  }
  if (typeof key !== 'string') create = create.addPrimaryKeyConstraint(key.constraint, key.columns);
  await create.execute();
  if (table.index) {
    await db.schema
      .createIndex(table.index.name)
      .ifNotExists()
      .on(table.name)
      .columns(table.index.columns)
      .execute();
  }
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
        await createTableIfMissing(db, {
          name: 'marketplace_embeddings',
          columns: {
            environment: 'text',
            system_id: 'text',
            model: 'text',
            dimensions: 'integer',
            text_hash: 'text',
            vector: sql.raw(bytes),
            embedded_at: 'text',
          },
          key: {
            constraint: 'marketplace_embeddings_pkey',
            columns: ['model', 'environment', 'system_id'],
          },
          index: { name: 'marketplace_embeddings_instance', columns: ['environment', 'system_id'] },
        });
        await createTableIfMissing(db, {
          name: 'marketplace_embedding_jobs',
          columns: {
            id: 'text',
            environment: 'text',
            status: 'text',
            started_at: 'text',
            document: sql.raw(jsonType),
          },
          key: 'id',
          index: {
            name: 'marketplace_embedding_jobs_env',
            columns: ['environment', 'status', 'started_at'],
          },
        });
        await createTableIfMissing(db, {
          name: 'marketplace_embedding_leases',
          columns: { environment: 'text', job_id: 'text', owner: 'text', expires_at: 'bigint' },
          key: 'environment',
        });
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
