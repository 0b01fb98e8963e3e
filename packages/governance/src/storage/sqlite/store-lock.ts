import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { GovernanceError } from '../../errors';
import { removeFile } from './result-journal';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { code?: string }).code === 'EPERM';
  }
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes one process at a time the owner of a SQLite store file: sequence numbers and the result
 * journal live in that process. The lock is `<file>.lock` holding the owner's pid; a lock whose
 * process is gone (a crash, `kill -9`) is taken over.
 *
 * @example
 * const lock = lockStoreFile('/data/governance.db');
 * lock.release();
 */
export function lockStoreFile(file: string): { release(): void } {
  const lockFile = `${file}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return { release: () => removeFile(lockFile) };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = holderOf(lockFile);
      if (holder !== undefined && isAlive(holder)) {
        throw new GovernanceError(
          'storage_failure',
          `The SQLite database ${file} is open in process ${holder} (${lockFile}); one process at a time may use it. If that process is not a dcg service, delete the lock file.`,
        );
      }
      // Left by a process that is gone.
      removeFile(lockFile);
    }
  }
  throw new GovernanceError(
    'storage_failure',
    `Cannot lock the SQLite database ${file} (${lockFile})`,
  );
}
