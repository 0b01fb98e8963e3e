import {
  closeSync,
  fdatasync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ComplianceState } from '@dcg/contract-schema';
import { GovernanceError } from '../../errors';

/**
 * An acknowledged evaluation result as the journal keeps it: everything the SQLite row needs,
 * with the submission already serialised (it is written to the journal and to the table as is).
 */
export interface JournalRecord {
  seq: number;
  contractId: string;
  policyId: string;
  environment: string;
  receivedAt: string;
  detailsConform: boolean;
  status: ComplianceState;
  /** The submission document as JSON text. */
  submissionJson: string;
}

const SUBMISSION_MARK = ',"submission":';

/**
 * One journal line: the record as a JSON object followed by a newline. The submission is spliced
 * in as the JSON text it already is, so it is serialised once per result.
 */
export function journalLine(record: JournalRecord): string {
  const { submissionJson, ...head } = record;
  return `${JSON.stringify(head).slice(0, -1)}${SUBMISSION_MARK}${submissionJson}}\n`;
}

/**
 * The submission's JSON text inside a journal line, as written: it is the last member, and the
 * mark cannot occur earlier because quotes inside JSON strings are escaped.
 */
export function submissionText(line: string): string {
  return line.slice(line.indexOf(SUBMISSION_MARK) + SUBMISSION_MARK.length, -1);
}

function recordFromLine(line: string): JournalRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const r = parsed as Record<string, unknown>;
  if (
    !Number.isSafeInteger(r.seq) ||
    typeof r.contractId !== 'string' ||
    typeof r.policyId !== 'string' ||
    typeof r.environment !== 'string' ||
    typeof r.receivedAt !== 'string' ||
    typeof r.detailsConform !== 'boolean' ||
    (r.status !== 'compliant' && r.status !== 'violated' && r.status !== 'unprocessable') ||
    !('submission' in r)
  ) {
    return undefined;
  }
  return {
    seq: r.seq as number,
    contractId: r.contractId,
    policyId: r.policyId,
    environment: r.environment,
    receivedAt: r.receivedAt,
    detailsConform: r.detailsConform,
    status: r.status,
    submissionJson: submissionText(line),
  };
}

/**
 * Reads a journal's text. Complete lines are records; an unreadable remainder at the end is a
 * write that was cut off (a crash during an append that was therefore never acknowledged) and is
 * dropped. An unreadable line followed by readable ones is damage, not a cut-off write: refusing
 * it is the only way not to lose the acknowledged results after it silently.
 */
export function parseJournal(text: string, file: string): JournalRecord[] {
  const lines = text.split('\n');
  // The part after the last newline was never a complete line.
  lines.pop();
  const records: JournalRecord[] = [];
  let unreadable: number | undefined;
  for (const [index, line] of lines.entries()) {
    const record = line === '' ? undefined : recordFromLine(line);
    if (record === undefined) {
      unreadable ??= index + 1;
      continue;
    }
    if (unreadable !== undefined) {
      throw new GovernanceError(
        'storage_failure',
        `The result journal ${file} is damaged at line ${unreadable}, before acknowledged results. Copy it for inspection; moving it aside starts without the results it holds.`,
      );
    }
    records.push(record);
  }
  return records;
}

/**
 * The append-only files in which the SQLite store makes evaluation results durable before it
 * acknowledges them. Appending costs a single `write` (plus `fdatasync` when `sync`), where a
 * SQLite commit writes every page the row, its indexes and the current pointer touch.
 *
 * The journal is a series of generation files, `<base>.<n>`. The store appends to the newest;
 * `seal()` closes it when its results are handed to the tables, whose worker deletes it once
 * they are there. At open, every file left is read back, oldest first.
 *
 * @example
 * const { journal, records, files } = ResultJournal.open('/data/governance.db.results-journal', { sync: false });
 * journal.append(journalLine(record));
 * const sealed = journal.seal();
 */
export class ResultJournal {
  private fd: number | undefined;
  private size = 0;

  private constructor(
    readonly base: string,
    private readonly sync: boolean,
    private generation: number,
  ) {}

  /** Reads every generation file left at `base` (oldest first) and opens the journal after them. */
  static open(
    base: string,
    options: { sync: boolean },
  ): { journal: ResultJournal; records: JournalRecord[]; files: string[] } {
    const prefix = `${basename(base)}.`;
    const generations = readdirSync(dirname(base))
      .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
      .map((name) => Number(name.slice(prefix.length)))
      .sort((a, b) => a - b);
    const records: JournalRecord[] = [];
    const files: string[] = [];
    for (const generation of generations) {
      const file = `${base}.${generation}`;
      records.push(...parseJournal(readFileSync(file, 'utf8'), file));
      files.push(file);
    }
    const last = generations[generations.length - 1] ?? 0;
    return { journal: new ResultJournal(base, options.sync, last + 1), records, files };
  }

  /**
   * Appends complete lines to the newest file. Without `sync` they are durable (against a crash
   * of the process) once this returns; with `sync`, once `flushToDisk()` resolves. On failure the
   * file is cut back to where it was, so a half-written line can never sit in front of later
   * acknowledged ones.
   */
  append(lines: string): void {
    const fd = this.fd ?? this.openGeneration();
    const before = this.size;
    try {
      // A string is written without an intermediate Buffer; a short write is a failure.
      const written = writeSync(fd, lines);
      this.size += written;
      const expected = Buffer.byteLength(lines);
      if (written !== expected) throw new Error(`wrote ${written} of ${expected} bytes`);
    } catch (error) {
      this.cutBack(before);
      throw error;
    }
  }

  /** Whether appended lines need `flushToDisk()` before they may be acknowledged. */
  get syncs(): boolean {
    return this.sync;
  }

  /** Bytes in the newest file. */
  get length(): number {
    return this.size;
  }

  /**
   * Syncs the newest file's data to disk on the thread pool, so the event loop keeps serving
   * (and gathering the next group) meanwhile. No append or seal may happen until it settles.
   */
  flushToDisk(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Cuts the newest file back to `length` bytes (lines that never became durable). */
  cutBack(length: number): void {
    if (this.fd === undefined) return;
    try {
      ftruncateSync(this.fd, length);
      this.size = length;
    } catch {
      // The file stays longer; its unreadable end is dropped at the next open.
    }
  }

  /** Closes the newest file (if it has lines) and returns its generation; appends go to a new one. */
  seal(): number | undefined {
    if (this.fd === undefined) return undefined;
    closeSync(this.fd);
    this.fd = undefined;
    return this.generation++;
  }

  /** The file of a generation. */
  fileOf(generation: number): string {
    return `${this.base}.${generation}`;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openGeneration(): number {
    this.fd = openSync(this.fileOf(this.generation), 'a');
    this.size = 0;
    // A synced line is only power-loss safe once the directory entry of its new file is too.
    if (this.sync) syncDirectory(dirname(this.base));
    return this.fd;
  }
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
