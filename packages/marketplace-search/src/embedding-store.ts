import type { EmbeddingJob, EmbeddingJobStatus } from '@dcg/governance-schema';

export type { EmbeddingJob, EmbeddingJobStatus };

/**
 * An embedding as stored: the vector of one instance made by one model, with the hash of the
 * text it was made from (a different hash today means it is stale).
 *
 * @example
 * const row: StoredEmbedding = { environment: 'production', systemId: 'urn:dmb:dp:a:b:0', model: 'local:x:3',
 *   dimensions: 3, textHash: '00ff', vector: new Float32Array([1, 0, 0]), embeddedAt: new Date().toISOString() };
 */
export interface StoredEmbedding {
  environment: string;
  systemId: string;
  model: string;
  dimensions: number;
  textHash: string;
  vector: Float32Array;
  embeddedAt: string;
}

/**
 * Durable storage of embeddings and embedding jobs: SQLite (`openSqliteEmbeddingStore`) or
 * PostgreSQL (`openPostgresEmbeddingStore`), both from `@dcg/marketplace-search/node`, both
 * passing one conformance suite.
 *
 * @example
 * await store.putEmbeddings([row]);
 * const rows = await store.listEmbeddings('local:universal-sentence-encoder-lite:512', 'production');
 */
export interface EmbeddingStore {
  readonly kind: string;
  /** Inserts or replaces, by environment, system id and model. Atomic for the whole list. */
  putEmbeddings(rows: readonly StoredEmbedding[]): Promise<void>;
  /** Removes every model's embedding of the instance. */
  deleteEmbeddings(environment: string, systemId: string): Promise<void>;
  /** The embeddings of one model, optionally of one environment. */
  listEmbeddings(model: string, environment?: string): Promise<StoredEmbedding[]>;
  /** How many embeddings each model has (all environments): what a model change leaves behind. */
  countByModel(): Promise<Record<string, number>>;
  createJob(job: EmbeddingJob): Promise<void>;
  /**
   * Runs `job` for its environment unless another owner's job holds the environment's live lease
   * (several processes on one database): atomically takes the lease for `lease.owner` until
   * `leaseMs` from now (database time) and stores the job (inserted, or updated when resumed).
   * A job whose lease expired (its process died) is taken over: stored as failed, superseded.
   * Answers whether the job was claimed and the job that runs (this one, or the holder's).
   */
  claimJob(
    job: EmbeddingJob,
    lease: { owner: string; leaseMs: number },
  ): Promise<{ claimed: boolean; job: EmbeddingJob }>;
  /** Extends the owner's lease of the environment; false when it is no longer the owner's. */
  renewJobLease(environment: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Ends the owner's lease of the environment (another owner's is left alone). */
  releaseJobLease(environment: string, owner: string): Promise<void>;
  updateJob(job: EmbeddingJob): Promise<void>;
  getJob(id: string): Promise<EmbeddingJob | null>;
  /** Jobs newest first, optionally of one environment and status; at most `limit`. */
  listJobs(filter: {
    environment?: string;
    status?: EmbeddingJobStatus;
    limit?: number;
  }): Promise<EmbeddingJob[]>;
  close(): Promise<void>;
}

/**
 * The stored form of a job whose lease expired while it ran and that another one replaced.
 *
 * @example
 * const failed = supersededJob(stale, 'job-2', new Date().toISOString());
 */
export function supersededJob(job: EmbeddingJob, by: string, at: string): EmbeddingJob {
  return {
    ...job,
    status: 'failed',
    errors: [
      ...job.errors,
      { systemId: '', message: `its process stopped renewing the lease; job ${by} replaced it` },
    ].slice(-20),
    updatedAt: at,
    finishedAt: at,
  };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Bytes of a vector as stored (little-endian float32).
 *
 * @example
 * vectorFromBytes(vectorToBytes(new Float32Array([1, 2]))); // Float32Array [1, 2]
 */
export function vectorToBytes(vector: Float32Array): Uint8Array {
  // The platform's own layout is the stored one (one copy, no per-element work).
  if (LITTLE_ENDIAN) return new Uint8Array(Float32Array.from(vector).buffer);
  const out = new Uint8Array(vector.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] as number, true);
  return out;
}

/** The vector of stored bytes (see {@link vectorToBytes}). */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const length = Math.floor(bytes.byteLength / 4);
  if (LITTLE_ENDIAN)
    return new Float32Array(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + length * 4) as ArrayBuffer,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
