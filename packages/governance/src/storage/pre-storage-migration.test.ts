import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { GovernanceStore } from '../repositories';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';

// Databases written by the store code before @dcg/storage (see __fixtures__/pre-storage/README.md)
// open in place: every row is there, and dcg_schema_versions records what they held.
const fixtures = new URL('./__fixtures__/pre-storage/', import.meta.url).pathname;
const CONTRACT = 'urn:dmb:cmp:fin:orders:0:port';

async function expectPreStorageRows(store: GovernanceStore): Promise<void> {
  const guardian = await store.getTemplate('urn:dmb:itm:guardian:1', 'production');
  expect(guardian?.document).toEqual({
    id: 'urn:dmb:itm:guardian:1',
    environment: 'production',
    url: 'http://guardian',
  });
  expect((await store.getTemplate('urn:dmb:itm:plain:1'))?.environment).toBeNull();
  const policies = await store.listPolicies({ limit: 10, offset: 0 });
  expect(policies.data.map((p) => [p.name, p.trigger, p.status, p.templateId])).toEqual([
    ['Guarded', 'passive', 'enabled', 'urn:dmb:itm:guardian:1'],
    ['Active policy', 'active', 'grace', null],
  ]);
  expect((await store.getPlan('plan-1'))?.status).toBe('running');
  // instance-a owned the running plan under its lease; once that ends, another instance claims it.
  await store.endLease('instance-a');
  expect((await store.claimOrphanedPlans('instance-b')).map((p) => p.id)).toEqual(['plan-1']);
  expect(
    (await store.findInstancesWithComponent('urn:dmb:cmp:fin:orders:0:guardian')).map(
      (i) => i.systemId,
    ),
  ).toEqual(['urn:dmb:dp:fin:orders:0']);
  expect((await store.findContractGuards(CONTRACT)).map((g) => g.policyId)).toEqual(['pol-active']);
  const history = await store.listResultHistory(CONTRACT, { limit: 10, offset: 0 });
  expect(history.data.map((r) => [r.seq, r.status])).toEqual([
    [3, 'compliant'],
    [2, 'violated'],
    [1, 'compliant'],
  ]);
  expect(history.data[0]?.submission).toEqual({
    result: { satisfiesPolicy: true },
    n: 2,
    text: 'naïve ✓',
  });
  const next = await store.appendResult(
    {
      contractId: CONTRACT,
      policyId: 'pol-active',
      environment: 'production',
      receivedAt: '2026-11-28T00:00:00.000Z',
      submission: {},
      detailsConform: true,
      status: 'violated',
    },
    { requireGuard: true },
  );
  expect(next.seq).toBe(4);
  expect((await store.getCurrentResult(CONTRACT, 'production'))?.status).toBe('violated');
}

const adoptedVersion = [
  { component: 'governance', version: 1, name: expect.stringMatching(/adopted/) },
];

describe('a SQLite data directory written before @dcg/storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcg-pre-storage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens in place with its rows, and records version 1 as adopted', async () => {
    const file = join(dir, 'governance.db');
    copyFileSync(join(fixtures, 'governance.db'), file);
    const store = await openSqliteStore({ file });
    await expectPreStorageRows(store);
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT component, version, name FROM dcg_schema_versions').all()).toEqual(
        adoptedVersion,
      );
    } finally {
      db.close();
    }
    // Opening again changes nothing.
    const reopened = await openSqliteStore({ file });
    expect((await reopened.getCurrentResult(CONTRACT, 'production'))?.seq).toBe(4);
    await reopened.close();
  });
});

describe.skipIf(!(await postgresAvailable()))(
  'a PostgreSQL schema written before @dcg/storage',
  () => {
    const { schema, drop } = randomSchema('storage_pre');
    afterAll(drop);

    it('opens in place with its rows, and records version 1 as adopted', async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const dump = readFileSync(join(fixtures, 'governance-postgres.sql'), 'utf8');
        await client.query(dump.replaceAll('__SCHEMA__', schema));
      } finally {
        await client.end();
      }
      const store = await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema });
      await expectPreStorageRows(store);
      await store.close();
      const check = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await check.connect();
      try {
        const { rows } = await check.query(
          `SELECT component, version, name FROM ${schema}.dcg_schema_versions`,
        );
        expect(rows).toEqual(adoptedVersion);
      } finally {
        await check.end();
      }
    });
  },
);
