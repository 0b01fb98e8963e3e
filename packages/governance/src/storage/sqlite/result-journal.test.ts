import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GovernanceError } from '../../errors';
import { type JournalRecord, journalLine, parseJournal, ResultJournal } from './result-journal';

const dir = mkdtempSync(join(tmpdir(), 'governance-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (seq: number, submission: unknown = { seq }): JournalRecord => ({
  seq,
  contractId: `urn:dmb:cmp:j:0:c${seq}`,
  policyId: 'p',
  environment: 'production',
  receivedAt: '2026-11-22T00:00:00.000Z',
  detailsConform: seq % 2 === 0,
  status: seq % 2 === 0 ? 'compliant' : 'unprocessable',
  submissionJson: JSON.stringify(submission),
});

describe('result journal', () => {
  it('reads back exactly the records it was given, submission text included', () => {
    const tricky = {
      text: 'line\nbreak "quoted" ,"submission": \u0000 é 🚀',
      nested: [1, { a: null }],
    };
    const records = [record(1), record(2, tricky), record(3)];
    const text = records.map(journalLine).join('');
    expect(text.split('\n')).toHaveLength(4);
    expect(parseJournal(text, 'j')).toEqual(records);
  });

  it('drops a cut-off last line (a write a crash interrupted, never acknowledged)', () => {
    const text = `${journalLine(record(1))}${journalLine(record(2)).slice(0, 30)}`;
    expect(parseJournal(text, 'j').map((r) => r.seq)).toEqual([1]);
  });

  it('drops unreadable complete lines at the end (zeros left by an OS crash)', () => {
    const text = `${journalLine(record(1))}\u0000\u0000\u0000\n{"seq":2}\n`;
    expect(parseJournal(text, 'j').map((r) => r.seq)).toEqual([1]);
  });

  it('refuses damage in front of readable records, naming the file and line', () => {
    const text = `${journalLine(record(1))}garbage\n${journalLine(record(3))}`;
    let thrown: unknown;
    try {
      parseJournal(text, '/data/g.db.results-journal.7');
    } catch (error) {
      thrown = error;
    }
    expect(GovernanceError.is(thrown) && thrown.code).toBe('storage_failure');
    expect((thrown as Error).message).toMatch(/g\.db\.results-journal\.7.*line 2/);
  });

  it('appends to a new generation after each seal and reads all generations back in order', () => {
    const base = join(dir, 'gen.db.results-journal');
    const first = ResultJournal.open(base, { sync: false });
    expect(first.records).toEqual([]);
    expect(first.journal.seal()).toBeUndefined();
    first.journal.append(journalLine(record(1)) + journalLine(record(2)));
    const sealed = first.journal.seal();
    expect(sealed).toBe(1);
    first.journal.append(journalLine(record(3)));
    first.journal.close();
    // Ten sorts after nine numerically, not as text.
    writeFileSync(`${base}.10`, `${journalLine(record(5))}{"seq":6,"cut`);
    writeFileSync(`${base}.9`, journalLine(record(4)));
    writeFileSync(`${base}.x`, 'not a generation');
    const second = ResultJournal.open(base, { sync: true });
    expect(second.records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(second.files).toEqual([1, 2, 9, 10].map((n) => `${base}.${n}`));
    second.journal.append(journalLine(record(7)));
    expect(existsSync(`${base}.11`)).toBe(true);
    rmSync(second.journal.fileOf(1), { force: true });
    rmSync(second.journal.fileOf(1), { force: true });
    expect(existsSync(`${base}.1`)).toBe(false);
    second.journal.close();
    expect(readFileSync(`${base}.11`, 'utf8')).toBe(journalLine(record(7)));
  });
});
