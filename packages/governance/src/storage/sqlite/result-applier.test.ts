import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResultApplier } from './result-applier';
import { type JournalRecord, journalLine } from './result-journal';
import { openSqliteStore } from './sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'governance-applier-'));
const file = join(dir, 'applier.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INSERT = `INSERT INTO evaluation_results
  (seq, contract_id, policy_id, environment, received_at, submission, details_conform, status)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

const record = (seq: number, status = 'compliant'): JournalRecord => ({
  seq,
  contractId: 'c',
  policyId: 'p',
  environment: 'e',
  receivedAt: `2026-11-22T00:00:0${seq}.000Z`,
  detailsConform: true,
  status: status as JournalRecord['status'],
  submissionJson: `{"n":${seq},"text":"a \\"quoted\\" ,\\"submission\\": mark"}`,
});

const rows = () => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT seq, submission, status FROM evaluation_results ORDER BY seq')
      .all() as Array<{ seq: number; submission: string; status: string }>;
  } finally {
    db.close();
  }
};

describe('result applier thread', () => {
  beforeAll(async () => {
    // The store creates the schema.
    await (await openSqliteStore({ file })).close();
  });

  it('inserts a sealed journal file in one transaction, keeps the submission text, deletes the file', async () => {
    const applier = await startResultApplier(file, { synchronous: 'NORMAL', insertSql: INSERT });
    const sealed = join(dir, 'applier.db.results-journal.1');
    writeFileSync(sealed, journalLine(record(1)) + journalLine(record(2)));
    await applier.apply(sealed);
    expect(existsSync(sealed)).toBe(false);
    expect(rows().map((r) => [r.seq, r.submission])).toEqual([
      [1, record(1).submissionJson],
      [2, record(2).submissionJson],
    ]);
    await applier.close();
  });

  it('rejects a file it cannot insert (kept, none of its rows in); a file applied again adds only what is missing', async () => {
    const applier = await startResultApplier(file, { synchronous: 'FULL', insertSql: INSERT });
    const sealed = join(dir, 'applier.db.results-journal.2');
    writeFileSync(sealed, journalLine(record(3)) + journalLine(record(4, 'bogus')));
    await expect(applier.apply(sealed)).rejects.toThrow(/CHECK constraint/);
    expect(existsSync(sealed)).toBe(true);
    expect(rows().map((r) => r.seq)).toEqual([1, 2]);
    expect(applier.stopped).toBe(false);
    // A file applied again (its thread stopped after the commit) inserts only what is missing.
    writeFileSync(sealed, journalLine(record(2)) + journalLine(record(3)));
    await applier.apply(sealed);
    expect(rows().map((r) => r.seq)).toEqual([1, 2, 3]);
    await applier.close();
    expect(applier.stopped).toBe(true);
    await expect(applier.apply(join(dir, 'any'))).rejects.toThrow(/stopped/);
  });
});
