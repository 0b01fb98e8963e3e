import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS so it runs the same from source (tsx, vitest) and from dist. It reads a sealed
// journal file (lines written by journalLine, submission last), inserts every line in one
// transaction and deletes the file.
const WORKER_SOURCE = `
const { readFileSync, unlinkSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = ' + workerData.synchronous);
const insert = db.prepare(workerData.insertSql);
const lastSeq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'evaluation_results'").pluck();
const MARK = ',"submission":';
const insertLines = db.transaction((text) => {
  // Rows go in in seq order, so a line at or below the highest seq is already in: a file applied
  // again (its thread stopped between the commit and the answer) inserts only what is missing.
  const done = lastSeq.get() ?? 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\\n', start);
    if (end === -1) break;
    const line = text.slice(start, end);
    start = end + 1;
    const r = JSON.parse(line);
    if (r.seq <= done) continue;
    // The submission is the last member: its JSON text is kept as written, not re-serialised.
    const submission = line.slice(line.indexOf(MARK) + MARK.length, -1);
    insert.run(r.seq, r.contractId, r.policyId, r.environment, r.receivedAt, submission, r.detailsConform ? 1 : 0, r.status);
  }
});
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.postMessage('closed');
    return;
  }
  try {
    insertLines(readFileSync(message.file, 'utf8'));
    // Its rows are committed: the file is no longer needed (a file left behind is harmless, the
    // next open skips rows the tables hold).
    try { unlinkSync(message.file); } catch {}
    parentPort.postMessage({ id: message.id, ok: true });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: String(error && error.message || error) });
  }
});
parentPort.postMessage('ready');
`;

/**
 * Moves journaled evaluation results into the SQLite tables from a worker thread, so that the
 * inserts, their indexes and the current-pointer trigger cost the request thread nothing.
 *
 * @example
 * const applier = await startResultApplier('/data/governance.db', { synchronous: 'NORMAL', insertSql });
 * await applier.apply('/data/governance.db.results-journal.7');
 */
export interface ResultApplier {
  /**
   * Inserts every line of a sealed journal file in one transaction, then deletes the file;
   * rejects with the reason (the file is then kept).
   */
  apply(file: string): Promise<void>;
  /** True once the thread has stopped (closed, or died): `apply` then rejects at once. */
  readonly stopped: boolean;
  close(): Promise<void>;
}

/**
 * Starts the worker on its own connection to `file`. `insertSql` takes, in order, seq, contract
 * id, policy id, environment, received at, submission JSON, details conform (0/1) and status.
 */
export async function startResultApplier(
  file: string,
  options: { synchronous: 'FULL' | 'NORMAL'; insertSql: string },
): Promise<ResultApplier> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, ...options },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  worker.on('message', (message: { id?: number; ok?: boolean; message?: string }) => {
    if (message.id === undefined) return;
    const w = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.ok) w?.resolve();
    else w?.reject(new Error(message.message ?? 'the result applier failed'));
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the result applier thread stopped')));
  // Idle, it must not keep the process alive; while results are in flight it must.
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    get stopped() {
      return failure !== undefined || closing !== undefined;
    },
    apply(file) {
      if (failure || closing) {
        return Promise.reject(failure ?? new Error('the result applier thread stopped'));
      }
      const id = nextId++;
      if (waiting.size === 0) worker.ref();
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, file });
      }).finally(() => {
        if (waiting.size === 0) worker.unref();
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (failure) return resolve();
        // Referenced again: an idle process must not exit before the thread has closed.
        worker.ref();
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      }).then(() => worker.terminate().then(() => undefined));
      return closing;
    },
  };
}
