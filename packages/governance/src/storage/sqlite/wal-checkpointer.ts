import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS so it runs the same from source (tsx, vitest) and from dist.
const WORKER_SOURCE = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = (mode) => { try { db.pragma('wal_checkpoint(' + mode + ')'); } catch {} };
const walSize = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
// Under sustained writes a passive checkpoint never catches up with the writer, so the WAL would
// never restart and would grow without bound. Past the limit, a TRUNCATE checkpoint finishes the
// remainder (writers wait for it, briefly: passive runs already copied nearly everything) and
// empties the file.
const timer = setInterval(() => {
  checkpoint('PASSIVE');
  if (walSize() > workerData.walLimitBytes) checkpoint('TRUNCATE');
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint('TRUNCATE');
  db.close();
  parentPort.postMessage('closed');
});
parentPort.postMessage('ready');
`;

/**
 * Copies the WAL back into the database file from a worker thread, and keeps the WAL file below
 * `walLimitBytes` under sustained writes. better-sqlite3 is
 * synchronous, and an automatic checkpoint (with its fsync) inside a commit would stall the event
 * loop for every request in flight; here the main connection never checkpoints.
 *
 * @example
 * const checkpointer = await startWalCheckpointer('/data/governance.db');
 * await checkpointer.close();
 */
export async function startWalCheckpointer(
  file: string,
  intervalMs = 200,
  walLimitBytes = 64 * 1024 * 1024,
): Promise<{ close(): Promise<void> }> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs, walLimitBytes },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        // Referenced again: an idle process must not exit before the final checkpoint.
        worker.ref();
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      }).then(() => worker.terminate().then(() => undefined));
      return closing;
    },
  };
}
