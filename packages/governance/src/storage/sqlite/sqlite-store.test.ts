import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import { describeStoreConformance } from '../store-conformance';
import { openSqliteStore } from './sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'governance-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreConformance('sqlite (synchronous=NORMAL)', () =>
  openSqliteStore({ file: join(dir, 'conformance.db') }),
);
describeStoreConformance('sqlite (synchronous=FULL, group commit)', () =>
  openSqliteStore({ file: join(dir, 'conformance-full.db'), synchronous: 'FULL' }),
);

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
    });
    await first.close();
    const second = await openSqliteStore({ file });
    const current = await second.getCurrentResult('c', 'e');
    expect(current?.submission).toEqual({ a: 1 });
    expect(current?.detailsConform).toBe(false);
    await second.close();
  });

  it('reports a file it cannot open as a storage failure naming the file', async () => {
    await expect(openSqliteStore({ file: join(dir, 'missing', 'dir', 'x.db') })).rejects.toSatisfy(
      (e) => GovernanceError.is(e) && e.code === 'storage_failure' && e.message.includes('x.db'),
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

  it('refuses work after close', async () => {
    const store = await openSqliteStore({ file: ':memory:' });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
  });
});
