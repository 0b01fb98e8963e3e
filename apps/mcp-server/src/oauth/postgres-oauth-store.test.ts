import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { describeOAuthStoreConformance, type OAuthStorage } from './oauth-store.conformance';
import { openPostgresOAuthStore } from './postgres-oauth-store';

const available = await postgresAvailable();
const schemas: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of schemas) await drop();
});

/** Runs SQL on the test database with a connection of its own. */
async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function postgresStorage(): OAuthStorage {
  const { schema, drop } = randomSchema('kysely_oauth');
  schemas.push(drop);
  return {
    open: () => openPostgresOAuthStore({ connectionString: TEST_DATABASE_URL, schema }),
    dump: async () => {
      const { rows } = await sql(
        `SELECT model, id, payload::text AS payload, grant_id FROM ${schema}.oauth_models`,
      );
      return JSON.stringify(rows);
    },
    writeLegacy: async (rows, version = 0) => {
      // The schema as the store created it before version 1 (no oauth_schema table); version 1
      // added the indexes and oauth_schema.
      await sql(`CREATE SCHEMA ${schema};
        CREATE TABLE ${schema}.oauth_models (model TEXT NOT NULL, id TEXT NOT NULL, payload JSONB NOT NULL,
          grant_id TEXT, uid TEXT, user_code TEXT, created_at BIGINT NOT NULL, expires_at BIGINT,
          consumed_at BIGINT, PRIMARY KEY (model, id));
        CREATE TABLE ${schema}.oauth_keys (id INT PRIMARY KEY CHECK (id = 1), body JSONB NOT NULL, newest_kid TEXT NOT NULL);`);
      for (const row of rows) {
        await sql(
          `INSERT INTO ${schema}.oauth_models (model, id, payload, grant_id, uid, created_at) VALUES ($1, $2, $3, $4, $5, 1)`,
          [
            row.model,
            row.id,
            JSON.stringify(row.payload),
            row.grantId ?? null,
            typeof row.payload.uid === 'string' ? row.payload.uid : null,
          ],
        );
      }
      if (version === 1) {
        await sql(`CREATE INDEX oauth_models_grant ON ${schema}.oauth_models (grant_id);
          CREATE INDEX oauth_models_uid ON ${schema}.oauth_models (model, uid);
          CREATE INDEX oauth_models_user_code ON ${schema}.oauth_models (model, user_code);
          CREATE INDEX oauth_models_expiry ON ${schema}.oauth_models (expires_at);
          CREATE TABLE ${schema}.oauth_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL);
          INSERT INTO ${schema}.oauth_schema VALUES (1, 1);`);
      }
    },
  };
}

if (available) {
  describeOAuthStoreConformance('postgres', postgresStorage);
} else {
  describe('OAuth store conformance: postgres', () => {
    it.skip(`PostgreSQL at ${TEST_DATABASE_URL} is not reachable`, () => undefined);
  });
}
