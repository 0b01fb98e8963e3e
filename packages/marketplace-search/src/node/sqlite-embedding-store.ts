import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  type EmbeddingJob,
  type EmbeddingStore,
  type StoredEmbedding,
  supersededJob,
  vectorFromBytes,
  vectorToBytes,
} from '../embedding-store';
import { MarketplaceSearchError } from '../errors';

interface EmbeddingRow {
  environment: string;
  system_id: string;
  model: string;
  dimensions: number;
  text_hash: string;
  vector: Buffer;
  embedded_at: string;
}

const toEmbedding = (r: EmbeddingRow): StoredEmbedding => ({
  environment: r.environment,
  systemId: r.system_id,
  model: r.model,
  dimensions: r.dimensions,
  textHash: r.text_hash,
  vector: vectorFromBytes(r.vector),
  embeddedAt: r.embedded_at,
});

/**
 * Opens (and migrates) the SQLite embedding store: a file of its own in the data folder, WAL
 * journal, `synchronous = NORMAL` (survives kill -9 of the process).
 *
 * @example
 * const store = await openSqliteEmbeddingStore({ file: './data/embeddings.db' });
 */
export async function openSqliteEmbeddingStore(options: { file: string }): Promise<EmbeddingStore> {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(options.file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(`
      CREATE TABLE IF NOT EXISTS marketplace_embeddings (
        environment TEXT NOT NULL,
        system_id TEXT NOT NULL,
        model TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        text_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        embedded_at TEXT NOT NULL,
        PRIMARY KEY (model, environment, system_id)
      );
      CREATE INDEX IF NOT EXISTS marketplace_embeddings_instance
        ON marketplace_embeddings (environment, system_id);
      CREATE TABLE IF NOT EXISTS marketplace_embedding_jobs (
        id TEXT PRIMARY KEY,
        environment TEXT NOT NULL,
        status TEXT NOT NULL,
        started_at TEXT NOT NULL,
        document TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS marketplace_embedding_jobs_env
        ON marketplace_embedding_jobs (environment, status, started_at);
      CREATE TABLE IF NOT EXISTS marketplace_embedding_leases (
        environment TEXT PRIMARY KEY,
        job_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `);
  } catch (cause) {
    throw new MarketplaceSearchError(
      'store_failed',
      `cannot open the embedding store ${options.file}`,
      { cause },
    );
  }
  // A data folder belongs to one process at a time: the leases of an earlier one are void, so
  // its interrupted job resumes at once.
  db.exec('DELETE FROM marketplace_embedding_leases');
  const put = db.prepare(
    `INSERT INTO marketplace_embeddings (environment, system_id, model, dimensions, text_hash, vector, embedded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (model, environment, system_id) DO UPDATE SET
       dimensions = excluded.dimensions, text_hash = excluded.text_hash,
       vector = excluded.vector, embedded_at = excluded.embedded_at`,
  );
  const putMany = db.transaction((rows: readonly StoredEmbedding[]) => {
    for (const r of rows) {
      put.run(
        r.environment,
        r.systemId,
        r.model,
        r.dimensions,
        r.textHash,
        vectorToBytes(r.vector),
        r.embeddedAt,
      );
    }
  });
  const del = db.prepare(
    'DELETE FROM marketplace_embeddings WHERE environment = ? AND system_id = ?',
  );
  const listAll = db.prepare('SELECT * FROM marketplace_embeddings WHERE model = ?');
  const listEnv = db.prepare(
    'SELECT * FROM marketplace_embeddings WHERE model = ? AND environment = ?',
  );
  const counts = db.prepare(
    'SELECT model, COUNT(*) AS n FROM marketplace_embeddings GROUP BY model',
  );
  const insertJob = db.prepare(
    'INSERT INTO marketplace_embedding_jobs (id, environment, status, started_at, document) VALUES (?, ?, ?, ?, ?)',
  );
  const updateJob = db.prepare(
    'UPDATE marketplace_embedding_jobs SET status = ?, document = ? WHERE id = ?',
  );
  const getJob = db.prepare('SELECT document FROM marketplace_embedding_jobs WHERE id = ?');
  const getLease = db.prepare(
    'SELECT job_id, owner, expires_at FROM marketplace_embedding_leases WHERE environment = ?',
  );
  const putLease = db.prepare(
    `INSERT INTO marketplace_embedding_leases (environment, job_id, owner, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (environment) DO UPDATE SET
       job_id = excluded.job_id, owner = excluded.owner, expires_at = excluded.expires_at`,
  );
  const renewLease = db.prepare(
    'UPDATE marketplace_embedding_leases SET expires_at = ? WHERE environment = ? AND owner = ?',
  );
  const releaseLease = db.prepare(
    'DELETE FROM marketplace_embedding_leases WHERE environment = ? AND owner = ?',
  );
  const readJob = (id: string): EmbeddingJob | null => {
    const row = getJob.get(id) as { document: string } | undefined;
    return row ? (JSON.parse(row.document) as EmbeddingJob) : null;
  };
  const saveJob = (job: EmbeddingJob) => {
    if (updateJob.run(job.status, JSON.stringify(job), job.id).changes === 0)
      insertJob.run(job.id, job.environment, job.status, job.startedAt, JSON.stringify(job));
  };
  // One transaction (IMMEDIATE: the write lock first), so two connections never both claim.
  const claim = db.transaction(
    (
      job: EmbeddingJob,
      owner: string,
      leaseMs: number,
    ): { claimed: boolean; job: EmbeddingJob } => {
      const now = Date.now();
      const held = getLease.get(job.environment) as
        | { job_id: string; owner: string; expires_at: number }
        | undefined;
      if (held && held.expires_at > now && held.owner !== owner) {
        const running = readJob(held.job_id);
        if (running) return { claimed: false, job: running };
      }
      if (held && held.job_id !== job.id) {
        const stale = readJob(held.job_id);
        if (stale?.status === 'running')
          saveJob(supersededJob(stale, job.id, new Date(now).toISOString()));
      }
      putLease.run(job.environment, job.id, owner, now + leaseMs);
      saveJob(job);
      return { claimed: true, job };
    },
  );

  const wrap = <T>(what: string, fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (cause) {
      return Promise.reject(
        new MarketplaceSearchError('store_failed', `embedding store: ${what} failed`, { cause }),
      );
    }
  };

  return {
    kind: 'sqlite',
    putEmbeddings: (rows) => wrap('put', () => void putMany(rows)),
    deleteEmbeddings: (environment, systemId) =>
      wrap('delete', () => void del.run(environment, systemId)),
    listEmbeddings: (model, environment) =>
      wrap('list', () =>
        (environment === undefined ? listAll.all(model) : listEnv.all(model, environment)).map(
          (r) => toEmbedding(r as EmbeddingRow),
        ),
      ),
    countByModel: () =>
      wrap('count', () =>
        Object.fromEntries(
          (counts.all() as Array<{ model: string; n: number }>).map((r) => [r.model, r.n]),
        ),
      ),
    createJob: (job) =>
      wrap(
        'create job',
        () =>
          void insertJob.run(
            job.id,
            job.environment,
            job.status,
            job.startedAt,
            JSON.stringify(job),
          ),
      ),
    claimJob: (job, lease) =>
      wrap('claim job', () => claim.immediate(job, lease.owner, lease.leaseMs)),
    renewJobLease: (environment, owner, leaseMs) =>
      wrap(
        'renew job lease',
        () => renewLease.run(Date.now() + leaseMs, environment, owner).changes > 0,
      ),
    releaseJobLease: (environment, owner) =>
      wrap('release job lease', () => void releaseLease.run(environment, owner)),
    updateJob: (job) =>
      wrap('update job', () => void updateJob.run(job.status, JSON.stringify(job), job.id)),
    getJob: (id) => wrap('get job', () => readJob(id)),
    listJobs: (filter) =>
      wrap('list jobs', () => {
        const where: string[] = [];
        const params: unknown[] = [];
        if (filter.environment !== undefined) {
          where.push('environment = ?');
          params.push(filter.environment);
        }
        if (filter.status !== undefined) {
          where.push('status = ?');
          params.push(filter.status);
        }
        params.push(Math.min(1000, filter.limit ?? 100));
        const rows = db
          .prepare(
            `SELECT document FROM marketplace_embedding_jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
             ORDER BY started_at DESC, id DESC LIMIT ?`,
          )
          .all(...params) as Array<{ document: string }>;
        return rows.map((r) => JSON.parse(r.document) as EmbeddingJob);
      }),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
