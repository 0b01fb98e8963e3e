import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import { describeStoreConformance } from '../store-conformance';
import { SQLITE_MIGRATIONS } from './migrations';
import { journalLine } from './result-journal';
import { openSqliteStore } from './sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'governance-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreConformance('sqlite (synchronous=NORMAL)', () =>
  openSqliteStore({ file: join(dir, 'conformance.db') }),
);
describeStoreConformance('sqlite (synchronous=FULL, group commit)', () =>
  openSqliteStore({ file: join(dir, 'conformance-full.db'), synchronous: 'FULL' }),
);

/** The journal generation files of a store file, by name. */
const journalFiles = (file: string) =>
  readdirSync(dir).filter((name) => name.startsWith(`${basename(file)}.results-journal.`));

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
    const submission = (satisfiesPolicy: boolean) =>
      JSON.stringify({ resource: { id: 'x', descriptor: '' }, result: { satisfiesPolicy } });
    insert.run('ok', 'p', 'e', '2026-01-01T00:00:00.000Z', submission(true), 1);
    insert.run('bad', 'p', 'e', '2026-01-01T00:00:01.000Z', submission(false), 1);
    insert.run('odd', 'p', 'e', '2026-01-01T00:00:02.000Z', submission(true), 0);
    insert.run('bad', 'p', 'e', '2026-01-01T00:00:03.000Z', submission(false), 1);
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
      JSON.stringify({
        id: 'old-plan',
        operation: 'deploy',
        environment: 'e',
        systemId: 'urn:dmb:dp:m:s:0',
        systemKind: 'dataproduct',
        status: 'completed',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        tasks: [],
        errors: [],
      }),
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    );
    db.close();

    const store = await openSqliteStore({ file });
    expect(
      (await store.listPlans({ environment: 'e', limit: 10, offset: 0 })).data.map((p) => p.id),
    ).toEqual(['old-plan']);
    const statuses = await store.getCurrentStatuses(['ok', 'bad', 'odd', 'none'], 'e');
    expect(Object.fromEntries(statuses.map((s) => [s.contractId, s.status]))).toEqual({
      ok: 'compliant',
      bad: 'violated',
      odd: 'unprocessable',
    });
    expect(statuses.find((s) => s.contractId === 'bad')?.receivedAt).toBe(
      '2026-01-01T00:00:03.000Z',
    );
    expect((await store.getCurrentResult('ok', 'e'))?.status).toBe('compliant');
    for (const component of ['urn:dmb:cmp:m:s:0:a', 'urn:dmb:cmp:m:s:0:nested']) {
      expect((await store.findInstancesWithComponent(component)).map((i) => i.systemId)).toEqual([
        'urn:dmb:dp:m:s:0',
      ]);
    }
    // New results after the migration move the stored status forward.
    await store.appendResult({
      contractId: 'bad',
      policyId: 'p',
      environment: 'e',
      receivedAt: '2026-01-02T00:00:00.000Z',
      submission: {},
      detailsConform: true,
      status: 'compliant',
    });
    expect((await store.getCurrentStatuses(['bad'], 'e'))[0]?.status).toBe('compliant');
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

  it('applies acknowledged results that a killed process left in the journal, once', async () => {
    const file = join(dir, 'journal-recovery.db');
    const store = await openSqliteStore({ file });
    const first = await store.appendResult(newResult('j', { n: 1 }));
    await store.close();
    // A process killed right after acknowledging two more results leaves them in the journal
    // only, after a line the tables already hold (killed between commit and emptying).
    const journaled = (seq: number, n: number) =>
      journalLine({
        seq,
        contractId: 'j',
        policyId: 'p',
        environment: 'e',
        receivedAt: `2026-11-22T00:00:0${n}.000Z`,
        detailsConform: true,
        status: n === 3 ? 'violated' : 'compliant',
        submissionJson: JSON.stringify({ n }),
      });
    writeFileSync(
      `${file}.results-journal.3`,
      `${journaled(first.seq, 1)}${journaled(first.seq + 1, 2)}${journaled(first.seq + 2, 3)}{"seq":`,
    );
    const reopened = await openSqliteStore({ file });
    const history = await reopened.listResultHistory('j', { limit: 10, offset: 0 });
    expect(history.data.map((r) => r.submission)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    expect((await reopened.getCurrentStatuses(['j'], 'e'))[0]?.status).toBe('violated');
    expect(journalFiles(file)).toEqual([]);
    // Sequence numbers continue after the recovered ones.
    expect((await reopened.appendResult(newResult('j', { n: 4 }))).seq).toBe(first.seq + 3);
    await reopened.close();
  });

  it('keeps results in the journal until they reach the tables, and reads see them at once', async () => {
    const file = join(dir, 'journal-read.db');
    const store = await openSqliteStore({ file });
    const stored = await store.appendResult(newResult('r', { n: 1 }));
    // Acknowledged: durable in the journal (a copy of the files is what a kill -9 leaves).
    const [journal] = journalFiles(file);
    expect(statSync(join(dir, journal!)).size).toBeGreaterThan(0);
    for (const name of ['journal-read.db', 'journal-read.db-wal', journal!]) {
      const from = join(dir, name);
      if (existsSync(from)) copyFileSync(from, from.replace('journal-read.db', 'journal-copy.db'));
    }
    expect((await store.getCurrentResult('r', 'e'))?.seq).toBe(stored.seq);
    // In the tables now: the journal generation is gone.
    expect(journalFiles(file)).toEqual([]);
    await store.close();
    const copy = await openSqliteStore({ file: join(dir, 'journal-copy.db') });
    expect((await copy.getCurrentResult('r', 'e'))?.submission).toEqual({ n: 1 });
    await copy.close();
  });

  it('keeps acknowledged results while SQLite refuses them, reports it on reads, and applies them once it accepts', async () => {
    const file = join(dir, 'journal-blocked.db');
    const store = await openSqliteStore({ file });
    const first = await store.appendResult(newResult('b', { n: 1 }));
    expect((await store.getCurrentResult('b', 'e'))?.seq).toBe(first.seq);
    // Another connection makes every insert fail for a while.
    const other = new Database(file);
    other.exec(`CREATE TABLE block_flag (x INTEGER);
      INSERT INTO block_flag VALUES (1);
      CREATE TRIGGER block_inserts BEFORE INSERT ON evaluation_results
      WHEN EXISTS (SELECT 1 FROM block_flag) BEGIN SELECT RAISE(ABORT, 'blocked for the test'); END;`);
    const second = await store.appendResult(newResult('b', { n: 2 }));
    await expect(store.getCurrentResult('b', 'e')).rejects.toSatisfy(
      (e) =>
        GovernanceError.is(e) &&
        e.code === 'storage_failure' &&
        e.message.includes('journal-blocked.db.results-journal'),
    );
    expect(journalFiles(file).length).toBeGreaterThan(0);
    // Not ready meanwhile (GET /ready answers 503).
    await expect(store.ping()).rejects.toThrow(/not taking/);
    other.exec('DELETE FROM block_flag');
    other.close();
    const current = await store.getCurrentResult('b', 'e');
    expect(current?.seq).toBe(second.seq);
    await store.ping();
    expect(current?.submission).toEqual({ n: 2 });
    expect(journalFiles(file)).toEqual([]);
    await store.close();
  });

  it('with FULL, syncs the journal off the event loop and a read gets through back-to-back syncs', async () => {
    const file = join(dir, 'journal-full.db');
    const store = await openSqliteStore({ file, synchronous: 'FULL' });
    let stop = false;
    let acknowledged = 0;
    let lastAcknowledged = 0;
    // Keep a sync in flight all the time: each settled sync finds the next group waiting.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const stored = await store.appendResult(newResult('f', { w, i }));
        acknowledged++;
        lastAcknowledged = Math.max(lastAcknowledged, stored.seq);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let read = 0; read < 5; read++) {
      const before = lastAcknowledged;
      const current = await store.getCurrentResult('f', 'e');
      expect(current?.seq).toBeGreaterThanOrEqual(before);
    }
    stop = true;
    await Promise.all(writers);
    const history = await store.listResultHistory('f', { limit: 1, offset: 0 });
    expect(history.meta.pagination.total).toBe(acknowledged);
    expect(history.data[0]?.seq).toBe(lastAcknowledged);
    await store.close();
  });

  it('lets one process at a time open a file, and takes over a lock whose process is gone', async () => {
    const file = join(dir, 'locked.db');
    const first = await openSqliteStore({ file });
    await expect(openSqliteStore({ file })).rejects.toSatisfy(
      (e) =>
        GovernanceError.is(e) &&
        e.code === 'storage_failure' &&
        e.message.includes(`process ${process.pid}`) &&
        e.message.includes('locked.db.lock'),
    );
    // The refused open changed nothing: the first store still works.
    await first.appendResult(newResult('l', { n: 1 }));
    await first.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    // A process killed with the file open leaves its lock behind.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(`${file}.lock`, `${gone}\n`);
    const second = await openSqliteStore({ file });
    expect((await second.getCurrentResult('l', 'e'))?.submission).toEqual({ n: 1 });
    await second.close();
    // After a restart the same pid can name another process (a container's pid 1): a lock with
    // this process's pid that this process does not hold, or with another start time, is stale.
    for (const stale of [`${process.pid}\n`, `${process.ppid} 1\n`]) {
      writeFileSync(`${file}.lock`, stale);
      await (await openSqliteStore({ file })).close();
    }
    // Another live process (this one's parent, with its real start time) holds it: refused.
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(`${file}.lock`, `${process.ppid} ${started}\n`);
    await expect(openSqliteStore({ file })).rejects.toThrow(`open in process ${process.ppid}`);
    rmSync(`${file}.lock`);
  });

  it('refuses to open over a damaged journal and says which file and line', async () => {
    const file = join(dir, 'journal-damaged.db');
    const line = journalLine({
      seq: 5,
      contractId: 'd',
      policyId: 'p',
      environment: 'e',
      receivedAt: '2026-11-22T00:00:00.000Z',
      detailsConform: true,
      status: 'compliant',
      submissionJson: '{}',
    });
    writeFileSync(`${file}.results-journal.1`, `not json\n${line}`);
    await expect(openSqliteStore({ file })).rejects.toSatisfy(
      (e) =>
        GovernanceError.is(e) &&
        e.code === 'storage_failure' &&
        e.message.includes('journal-damaged.db.results-journal.1') &&
        e.message.includes('line 1'),
    );
  });

  it('refuses work after close', async () => {
    const store = await openSqliteStore({ file: ':memory:' });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
  });
});
