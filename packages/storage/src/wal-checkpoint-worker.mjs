// The WAL checkpointer's thread (see wal-checkpointer.ts). Plain JavaScript so the same file runs
// from source (tsx, vitest) and from dist, where tsup copies it beside index.js.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const Database = createRequire(import.meta.url)('better-sqlite3');
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = (mode) => {
  try {
    db.pragma(`wal_checkpoint(${mode})`);
  } catch {
    // Busy: the next tick tries again.
  }
};
const walSize = () => {
  try {
    return statSync(`${workerData.file}-wal`).size;
  } catch {
    return 0;
  }
};
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
