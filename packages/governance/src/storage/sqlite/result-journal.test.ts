import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
  it('reads back exactly the records it was given, submission included', () => {
    const tricky = { text: 'line\nbreak "quoted" \u0000 é 🚀', nested: [1, { a: null }] };
    const records = [record(1), record(2, tricky), record(3)];
    const text = records.map(journalLine).join('');
    expect(text.split('\n')).toHaveLength(4);
    expect(parseJournal(text, 'j').records).toEqual(records);
  });

  it('drops a cut-off last line (a write a crash interrupted, never acknowledged)', () => {
    const text = `${journalLine(record(1))}${journalLine(record(2)).slice(0, 30)}`;
    const parsed = parseJournal(text, 'j');
    expect(parsed.records.map((r) => r.seq)).toEqual([1]);
    expect(parsed.readableBytes).toBe(Buffer.byteLength(journalLine(record(1))));
  });

  it('drops unreadable complete lines at the end (zeros left by an OS crash)', () => {
    const text = `${journalLine(record(1))}\u0000\u0000\u0000\n{"seq":2}\n`;
    expect(parseJournal(text, 'j').records.map((r) => r.seq)).toEqual([1]);
  });

  it('refuses damage in front of readable records, naming the file and line', () => {
    const text = `${journalLine(record(1))}garbage\n${journalLine(record(3))}`;
    expect(() => parseJournal(text, '/data/g.db.results-journal')).toThrowError(
      expect.objectContaining({
        code: 'storage_failure',
        message: expect.stringMatching(/g\.db\.results-journal.*line 2/),
      }),
    );
    try {
      parseJournal(text, 'j');
    } catch (error) {
      expect(GovernanceError.is(error)).toBe(true);
    }
  });

  it('cuts a cut-off end away at open, so later appends start on a line of their own', () => {
    const file = join(dir, 'cut.journal');
    writeFileSync(file, `${journalLine(record(1))}{"seq":2,"contr`);
    const first = ResultJournal.open(file, { sync: false });
    expect(first.records.map((r) => r.seq)).toEqual([1]);
    first.journal.append(journalLine(record(2)));
    first.journal.close();
    const second = ResultJournal.open(file, { sync: false });
    expect(second.records.map((r) => r.seq)).toEqual([1, 2]);
    second.journal.clear();
    second.journal.close();
    expect(statSync(file).size).toBe(0);
  });

  it('appends after whatever another writer left and syncs when asked', () => {
    const file = join(dir, 'sync.journal');
    const { journal } = ResultJournal.open(file, { sync: true });
    journal.append(journalLine(record(1)) + journalLine(record(2)));
    appendFileSync(file, journalLine(record(3)));
    journal.append(journalLine(record(4)));
    journal.close();
    expect(parseJournal(readFileSync(file, 'utf8'), file).records.map((r) => r.seq)).toEqual([
      1, 2, 3, 4,
    ]);
  });
});
