import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import {
  expectLegacyRowsMigrated,
  LEGACY_PLAN_DOCUMENT,
  legacySubmission,
} from '../__fixtures__/legacy-rows';
import { POSTGRES_MIGRATIONS } from '../legacy-postgres-migrations';
import { describeStoreConformance } from '../store-conformance.testkit';
import { openPostgresStore } from './postgres-store';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
const old = randomSchema();
afterAll(async () => {
  if (available) await Promise.all([drop(), old.drop()]);
});

describeStoreConformance(
  'postgres',
  () => openPostgresStore({ connectionString: TEST_DATABASE_URL, schema }),
  { skip: !available },
);

describe.skipIf(!available)('PostgreSQL store specifics', () => {
  it('migrates once when several stores open the same schema at once', async () => {
    const stores = await Promise.all(
      [1, 2, 3].map(() => openPostgresStore({ connectionString: TEST_DATABASE_URL, schema })),
    );
    await Promise.all(stores.map((s) => s.ping()));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('rejects an unsafe schema name and an unreachable server with storage errors', async () => {
    await expect(
      openPostgresStore({ connectionString: TEST_DATABASE_URL, schema: 'x; drop' }),
    ).rejects.toSatisfy((e) => GovernanceError.isInstance(e) && e.code === 'invalid_input');
    await expect(
      openPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test' }),
    ).rejects.toSatisfy((e) => GovernanceError.isInstance(e) && e.code === 'storage_failure');
  });

  it('migrates a version-1 schema: statuses and the component index are derived from stored rows', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${old.schema}`);
      await client.query(`SET search_path = ${old.schema}`);
      await client.query(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const first = POSTGRES_MIGRATIONS.find((m) => m.version === 1)!;
      await client.query(first.sql);
      await client.query("INSERT INTO schema_migrations VALUES (1, 'initial schema', 'then')");
      for (const [seq, contract, satisfies, conform] of [
        [1, 'ok', true, true],
        [2, 'bad', false, true],
        [3, 'odd', true, false],
        [4, 'bad', false, true],
      ] as const) {
        await client.query(
          'INSERT INTO evaluation_results (seq, contract_id, policy_id, environment, received_at, submission, details_conform) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [
            seq,
            contract,
            'p',
            'e',
            `2026-01-01T00:00:0${seq}.000Z`,
            legacySubmission(satisfies),
            conform,
          ],
        );
        await client.query(
          `INSERT INTO current_results (contract_id, policy_id, environment, seq) VALUES ($1, 'p', 'e', $2)
           ON CONFLICT (contract_id, policy_id, environment) DO UPDATE SET seq = excluded.seq`,
          [contract, seq],
        );
      }
      await client.query("SELECT setval(pg_get_serial_sequence('evaluation_results', 'seq'), 4)");
      await client.query(
        'INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES ($1, $2, $3, $4, $5)',
        [
          'urn:dmb:dp:m:s:0',
          'e',
          JSON.stringify({
            id: 'urn:dmb:dp:m:s:0',
            components: [
              {
                id: 'urn:dmb:cmp:m:s:0:a',
                components: [{ id: 'urn:dmb:cmp:m:s:0:nested' }, 'junk'],
              },
              { name: 'no id', components: { not: 'an array' } },
              7,
            ],
          }),
          '2026-01-01T00:00:00.000Z',
          'plan',
        ],
      );
      await client.query(
        'INSERT INTO plans (id, status, document, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)',
        [
          'old-plan',
          'completed',
          LEGACY_PLAN_DOCUMENT,
          '2026-01-01T00:00:00.000Z',
          '2026-01-01T00:00:00.000Z',
        ],
      );
      // A deployed guardian and a template registered before registrations were per environment.
      await client.query(
        'INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES ($1, $2, $3, $4, $5)',
        [
          'urn:dmb:dp:m:g:0',
          'e',
          JSON.stringify({
            id: 'urn:dmb:dp:m:g:0',
            components: [
              { id: 'urn:dmb:cmp:m:g:0:port', __dataContractEnabled: true },
              {
                id: 'urn:dmb:cmp:m:g:0:guardian',
                __dataContractGuardianSpec: {
                  guards: [{ dataContractId: 'urn:dmb:cmp:m:g:0:port' }],
                },
                info: { privateInfo: { __dataContractGuardian: { policyId: 'old-policy' } } },
              },
            ],
          }),
          '2026-01-01T00:00:00.000Z',
          'plan',
        ],
      );
      await client.query('INSERT INTO templates VALUES ($1, $2, $3, $4)', [
        'urn:dmb:itm:old:1',
        JSON.stringify({ id: 'urn:dmb:itm:old:1', url: 'http://old', environment: 'e' }),
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
      ]);
    } finally {
      await client.end();
    }

    const store = await openPostgresStore({
      connectionString: TEST_DATABASE_URL,
      schema: old.schema,
    });
    try {
      // Migration 4: the old registration serves every environment; guardians are indexed.
      expect((await store.getTemplate('urn:dmb:itm:old:1'))?.environment).toBeNull();
      expect(
        (await store.findContractGuards('urn:dmb:cmp:m:g:0:port')).map((g) => [
          g.environment,
          g.policyId,
        ]),
      ).toEqual([['e', 'old-policy']]);
      const next = await expectLegacyRowsMigrated(store, '2026-01-01T00:00:04.000Z');
      expect(next.seq).toBe(5);
    } finally {
      await store.close();
    }
  });
});
