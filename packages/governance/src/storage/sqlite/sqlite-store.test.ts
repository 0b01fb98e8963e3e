import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import {
  expectLegacyRowsMigrated,
  LEGACY_PLAN_DOCUMENT,
  legacySubmission,
} from '../__fixtures__/legacy-rows';
import { SQLITE_MIGRATIONS } from '../legacy-sqlite-migrations';
import { describeStoreConformance } from '../store-conformance.testkit';
import { openSqliteStore } from './sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'governance-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreConformance('sqlite (synchronous=NORMAL)', () =>
  openSqliteStore({ file: join(dir, 'conformance.db') }),
);
describeStoreConformance('sqlite (synchronous=FULL, group commit)', () =>
  openSqliteStore({ file: join(dir, 'conformance-full.db'), synchronous: 'FULL' }),
);

const newResult = (contractId: string, submission: Record<string, unknown>) => ({
  contractId,
  policyId: 'p',
  environment: 'e',
  receivedAt: new Date().toISOString(),
  submission,
  detailsConform: true,
  status: 'compliant' as const,
});

describe('SQLite store specifics', () => {
  it('reopens a file with its data and does not re-run migrations', async () => {
    const file = join(dir, 'reopen.db');
    const first = await openSqliteStore({ file });
    await first.appendResult({
      contractId: 'c',
      policyId: 'p',
      environment: 'e',
      receivedAt: new Date().toISOString(),
      submission: { a: 1 },
      detailsConform: false,
      status: 'unprocessable',
    });
    await first.close();
    const second = await openSqliteStore({ file });
    const current = await second.getCurrentResult('c', 'e');
    expect(current?.submission).toEqual({ a: 1 });
    expect(current?.detailsConform).toBe(false);
    expect(current?.status).toBe('unprocessable');
    await second.close();
  });

  it('reports a file it cannot open as a storage failure naming the file', async () => {
    await expect(openSqliteStore({ file: join(dir, 'missing', 'dir', 'x.db') })).rejects.toSatisfy(
      (e) =>
        GovernanceError.isInstance(e) && e.code === 'storage_failure' && e.message.includes('x.db'),
    );
  });

  it('commits a group of concurrent results once and acknowledges each after its commit', async () => {
    const store = await openSqliteStore({ file: join(dir, 'group.db'), synchronous: 'FULL' });
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        store.appendResult({
          contractId: 'g',
          policyId: 'p',
          environment: 'e',
          receivedAt: new Date().toISOString(),
          submission: { i },
          detailsConform: true,
          status: 'compliant',
        }),
      ),
    );
    expect(new Set(results.map((r) => r.seq)).size).toBe(25);
    // Queued results still in flight at close are committed, not dropped.
    const late = store.appendResult({
      contractId: 'g',
      policyId: 'p',
      environment: 'e',
      receivedAt: new Date().toISOString(),
      submission: { late: true },
      detailsConform: true,
      status: 'violated',
    });
    await store.close();
    const stored = await late;
    const reopened = await openSqliteStore({ file: join(dir, 'group.db') });
    expect((await reopened.getCurrentResult('g', 'e'))?.seq).toBe(stored.seq);
    expect(
      (await reopened.listResultHistory('g', { limit: 100, offset: 0 })).meta.pagination.total,
    ).toBe(26);
    await reopened.close();
  });

  it('migrates a version-2 database: statuses and the component index are derived from stored rows', async () => {
    const file = join(dir, 'version-2.db');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= 2)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        'then',
      );
    }
    const insert = db.prepare(
      'INSERT INTO evaluation_results (contract_id, policy_id, environment, received_at, submission, details_conform) VALUES (?, ?, ?, ?, ?, ?)',
    );
    insert.run('ok', 'p', 'e', '2026-01-01T00:00:00.000Z', legacySubmission(true), 1);
    insert.run('bad', 'p', 'e', '2026-01-01T00:00:01.000Z', legacySubmission(false), 1);
    insert.run('odd', 'p', 'e', '2026-01-01T00:00:02.000Z', legacySubmission(true), 0);
    insert.run('bad', 'p', 'e', '2026-01-01T00:00:03.000Z', legacySubmission(false), 1);
    db.prepare(
      'INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES (?, ?, ?, ?, ?)',
    ).run(
      'urn:dmb:dp:m:s:0',
      'e',
      JSON.stringify({
        id: 'urn:dmb:dp:m:s:0',
        components: [
          { id: 'urn:dmb:cmp:m:s:0:a', components: [{ id: 'urn:dmb:cmp:m:s:0:nested' }, 'junk'] },
          { name: 'no id' },
          7,
        ],
      }),
      '2026-01-01T00:00:00.000Z',
      'plan',
    );
    db.prepare(
      'INSERT INTO plans (id, status, document, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).run(
      'old-plan',
      'completed',
      LEGACY_PLAN_DOCUMENT,
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    );
    db.close();

    const store = await openSqliteStore({ file });
    await expectLegacyRowsMigrated(store, '2026-01-01T00:00:03.000Z');
    await store.close();
  });

  it('migrates a version-5 database: templates become registrations without an environment, deployed guardians are indexed', async () => {
    const file = join(dir, 'version-5.db');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= 5)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        'then',
      );
    }
    db.prepare('INSERT INTO templates VALUES (?, ?, ?, ?)').run(
      'urn:dmb:itm:old:1',
      JSON.stringify({ id: 'urn:dmb:itm:old:1', url: 'http://old', environment: 'production' }),
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    );
    db.prepare(
      'INSERT INTO instances (system_id, environment, descriptor, deployed_at, plan_id) VALUES (?, ?, ?, ?, ?)',
    ).run(
      'urn:dmb:dp:old:0',
      'production',
      JSON.stringify({
        id: 'urn:dmb:dp:old:0',
        components: [
          { id: 'urn:dmb:cmp:old:0:port', __dataContractEnabled: true },
          {
            id: 'urn:dmb:cmp:old:0:guardian',
            __dataContractGuardianSpec: { guards: [{ dataContractId: 'urn:dmb:cmp:old:0:port' }] },
            info: { privateInfo: { __dataContractGuardian: { policyId: 'old-policy' } } },
          },
        ],
      }),
      '2026-01-01T00:00:00.000Z',
      'plan',
    );
    db.close();
    const store = await openSqliteStore({ file });
    // It behaved as the one registration of its id: it still serves every environment.
    expect((await store.getTemplate('urn:dmb:itm:old:1'))?.environment).toBeNull();
    expect(
      (await store.findContractGuards('urn:dmb:cmp:old:0:port')).map((g) => [
        g.environment,
        g.policyId,
        g.guardianId,
      ]),
    ).toEqual([['production', 'old-policy', 'urn:dmb:cmp:old:0:guardian']]);
    await store.close();
  });

  it('keeps the WAL file below its limit under sustained writes, losing nothing', async () => {
    const file = join(dir, 'wal-limit.db');
    const limit = 256 * 1024;
    const store = await openSqliteStore({ file, walLimitBytes: limit });
    const document = { text: 'x'.repeat(2000) };
    // One commit per result: each writes several WAL pages, far more than the limit in total.
    for (let i = 0; i < 400; i++) {
      await store.appendResult({
        contractId: `wal-${i % 7}`,
        policyId: 'p',
        environment: 'e',
        receivedAt: new Date().toISOString(),
        submission: { ...document, i },
        detailsConform: true,
        status: 'compliant',
      });
    }
    const deadline = Date.now() + 10_000;
    while (statSync(`${file}-wal`).size > limit && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(limit);
    let total = 0;
    for (let c = 0; c < 7; c++) {
      total += (await store.listResultHistory(`wal-${c}`, { limit: 1, offset: 0 })).meta.pagination
        .total;
    }
    expect(total).toBe(400);
    await store.close();
  });

  it('commits each group in one transaction: a failing row fails alone, its neighbours are stored', async () => {
    const file = join(dir, 'group-failure.db');
    const store = await openSqliteStore({ file });
    // Another connection (SQLite needs no single owner) makes one contract's inserts fail.
    const other = new Database(file);
    other.exec(`CREATE TRIGGER refuse_bad BEFORE INSERT ON evaluation_results
      WHEN NEW.contract_id = 'bad' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;`);
    const outcomes = await Promise.allSettled(
      ['ok-1', 'bad', 'ok-2'].map((id) => store.appendResult(newResult(id, { id }))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toSatisfy(
      (e: unknown) => GovernanceError.isInstance(e) && e.code === 'storage_failure',
    );
    expect((await store.getCurrentResult('ok-2', 'e'))?.submission).toEqual({ id: 'ok-2' });
    expect(await store.getCurrentResult('bad', 'e')).toBeNull();
    // What this connection commits, another one reads at once.
    const seen = other
      .prepare("SELECT count(*) AS n FROM evaluation_results WHERE contract_id LIKE 'ok-%'")
      .get() as { n: number };
    expect(seen.n).toBe(2);
    other.close();
    await store.close();
  });

  it('refuses work after close', async () => {
    const store = await openSqliteStore({ file: ':memory:' });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
  });
});
