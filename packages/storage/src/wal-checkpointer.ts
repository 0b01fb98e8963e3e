import { Worker } from 'node:worker_threads';

/**
 * Copies the WAL back into the database file from a worker thread, and keeps the WAL file below
 * `walLimitBytes` under sustained writes. better-sqlite3 is synchronous, and an automatic
 * checkpoint (with its fsync) inside a commit would stall the event loop for every request in
 * flight; here the main connection never checkpoints.
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
  const worker = new Worker(new URL('./wal-checkpoint-worker.mjs', import.meta.url), {
    workerData: { file, intervalMs, walLimitBytes },
    // Plain JavaScript: none of the parent's loader flags (tsx, --input-type...) apply to it.
    execArgv: [],
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
