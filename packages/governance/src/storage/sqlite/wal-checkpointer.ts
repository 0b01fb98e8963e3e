import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS so it runs the same from source (tsx, vitest) and from dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = (mode) => { try { db.pragma('wal_checkpoint(' + mode + ')'); } catch {} };
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
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
 * Copies the WAL back into the database file from a worker thread. better-sqlite3 is
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
): Promise<{ close(): Promise<void> }> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs },
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
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      }).then(() => worker.terminate().then(() => undefined));
      return closing;
    },
  };
}
