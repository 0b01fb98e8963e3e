import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
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

/**
 * One journal line: the record as a JSON object followed by a newline. The submission is spliced
 * in as the JSON text it already is, so it is serialised once per result.
 */
export function journalLine(record: JournalRecord): string {
  const { submissionJson, ...head } = record;
  return `${JSON.stringify(head).slice(0, -1)},"submission":${submissionJson}}\n`;
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
    submissionJson: JSON.stringify(r.submission),
  };
}

/**
 * Reads a journal's text. Complete lines are records; an unreadable remainder at the end is a
 * write that was cut off (a crash during an append that was therefore never acknowledged) and is
 * dropped. An unreadable line followed by readable ones is damage, not a cut-off write: refusing
 * it is the only way not to lose the acknowledged results after it silently.
 */
export function parseJournal(
  text: string,
  file: string,
): { records: JournalRecord[]; readableBytes: number } {
  const lines = text.split('\n');
  // The part after the last newline was never a complete line.
  lines.pop();
  const records: JournalRecord[] = [];
  let unreadable: number | undefined;
  let readableBytes = 0;
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
    readableBytes += Buffer.byteLength(line) + 1;
  }
  return { records, readableBytes };
}

/**
 * The append-only file in which the SQLite store makes an evaluation result durable before it
 * acknowledges it. Appending one line costs a single `write` (plus `fdatasync` when `sync`),
 * where a SQLite commit writes every page the row, its indexes and the current pointer touch.
 * The store moves journaled results into its tables in large transactions and then empties the
 * journal; at open, whatever the journal still holds is moved first.
 *
 * @example
 * const { journal, records } = ResultJournal.open('/data/governance.db-results', { sync: false });
 * journal.append(records.map(journalLine).join(''));
 */
export class ResultJournal {
  private size: number;

  private constructor(
    private readonly fd: number,
    private readonly sync: boolean,
    readonly file: string,
  ) {
    this.size = fstatSync(fd).size;
  }

  /** Opens (or creates) the journal and returns the records it holds. */
  static open(
    file: string,
    options: { sync: boolean },
  ): { journal: ResultJournal; records: JournalRecord[] } {
    const fd = openSync(file, 'a+');
    try {
      const { records, readableBytes } = parseJournal(readFileSync(fd, 'utf8'), file);
      // Appends must follow the last complete line, not a cut-off one.
      if (fstatSync(fd).size !== readableBytes) ftruncateSync(fd, readableBytes);
      return { journal: new ResultJournal(fd, options.sync, file), records };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Appends complete lines and returns once they are written (and synced with `sync`). On
   * failure the file is cut back to where it was, so a half-written line can never sit in front
   * of later acknowledged ones.
   */
  append(lines: string): void {
    const buffer = Buffer.from(lines, 'utf8');
    try {
      let written = 0;
      while (written < buffer.length) {
        written += writeSync(this.fd, buffer, written, buffer.length - written);
      }
      if (this.sync) fdatasyncSync(this.fd);
      this.size += buffer.length;
    } catch (error) {
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // The file stays longer; its unreadable end is dropped at the next open.
      }
      throw error;
    }
  }

  /** Empties the journal once everything in it is in the tables. */
  clear(): void {
    ftruncateSync(this.fd, 0);
    this.size = 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}
