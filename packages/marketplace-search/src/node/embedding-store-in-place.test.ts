import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { vectorToBytes } from '../embedding-store';
import { openPostgresEmbeddingStore } from './postgres-embedding-store';
import { openSqliteEmbeddingStore } from './sqlite-embedding-store';

/** The tables as the stores created them before @dcg/storage (commit 5094945), per dialect. */
const legacyTables = (bytes: string, json: string, prefix = '') => `
  CREATE TABLE ${prefix}marketplace_embeddings (environment text NOT NULL, system_id text NOT NULL,
    model text NOT NULL, dimensions integer NOT NULL, text_hash text NOT NULL, vector ${bytes} NOT NULL,
    embedded_at text NOT NULL, PRIMARY KEY (model, environment, system_id));
  CREATE INDEX marketplace_embeddings_instance ON ${prefix}marketplace_embeddings (environment, system_id);
  CREATE TABLE ${prefix}marketplace_embedding_jobs (id text PRIMARY KEY, environment text NOT NULL,
    status text NOT NULL, started_at text NOT NULL, document ${json} NOT NULL);
  CREATE INDEX marketplace_embedding_jobs_env ON ${prefix}marketplace_embedding_jobs (environment, status, started_at);
  CREATE TABLE ${prefix}marketplace_embedding_leases (environment text PRIMARY KEY, job_id text NOT NULL,
    owner text NOT NULL, expires_at bigint NOT NULL);`;

const job = {
  id: 'old-job',
  environment: 'production',
  model: 'm1',
  status: 'completed',
  total: 1,
  done: 1,
  failed: 0,
  errors: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  resumed: 0,
};
const values = [
  'production',
  'urn:old',
  'm1',
  2,
  'h-old',
  Buffer.from(vectorToBytes(Float32Array.from([0.5, -1]))),
  '2026-01-01T00:00:00.000Z',
];

const expectOldRowsThere = async (store: Awaited<ReturnType<typeof openSqliteEmbeddingStore>>) => {
  const [row] = await store.listEmbeddings('m1', 'production');
  expect(row).toMatchObject({ systemId: 'urn:old', dimensions: 2, textHash: 'h-old' });
  expect(Array.from(row?.vector ?? [])).toEqual([0.5, -1]);
  expect(await store.getJob('old-job')).toMatchObject({ status: 'completed', done: 1 });
  expect(await store.countByModel()).toEqual({ m1: 1 });
};

const available = await postgresAvailable();

describe('embedding stores open databases written before @dcg/storage in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcg-emb-in-place-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('SQLite: every row kept, version 1 recorded, writes work', async () => {
    const file = join(dir, 'embeddings.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec(legacyTables('BLOB', 'TEXT'));
    old.prepare('INSERT INTO marketplace_embeddings VALUES (?, ?, ?, ?, ?, ?, ?)').run(...values);
    old
      .prepare('INSERT INTO marketplace_embedding_jobs VALUES (?, ?, ?, ?, ?)')
      .run(job.id, job.environment, job.status, job.startedAt, JSON.stringify(job));
    old.close();
    const store = await openSqliteEmbeddingStore({ file });
    try {
      await expectOldRowsThere(store);
      await store.deleteEmbeddings('production', 'urn:old');
      expect(await store.countByModel()).toEqual({});
    } finally {
      await store.close();
    }
    const check = new Database(file, { readonly: true });
    expect(
      check
        .prepare(
          "SELECT version FROM dcg_schema_versions WHERE component = 'marketplace-embeddings'",
        )
        .all(),
    ).toEqual([{ version: 1 }]);
    check.close();
  });

  it.skipIf(!available)('PostgreSQL: every row kept, version 1 recorded', async () => {
    const { schema, drop } = randomSchema('kysely_emb_old');
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(
        `CREATE SCHEMA ${schema}; ${legacyTables('bytea', 'jsonb', `${schema}.`)}`,
      );
      await client.query(
        `INSERT INTO ${schema}.marketplace_embeddings VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        values,
      );
      await client.query(
        `INSERT INTO ${schema}.marketplace_embedding_jobs VALUES ($1, $2, $3, $4, $5)`,
        [job.id, job.environment, job.status, job.startedAt, JSON.stringify(job)],
      );
      const store = await openPostgresEmbeddingStore({
        connectionString: TEST_DATABASE_URL,
        schema,
      });
      try {
        await expectOldRowsThere(store);
      } finally {
        await store.close();
      }
      const { rows } = await client.query(
        `SELECT version FROM ${schema}.dcg_schema_versions WHERE component = 'marketplace-embeddings'`,
      );
      expect(rows).toEqual([{ version: 1 }]);
    } finally {
      await client.end();
      await drop();
    }
  });
});
