import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { GovernanceError } from '../../errors';

/** Lock files this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

/**
 * When a process started, from /proc (Linux), or undefined. With the pid it names one process:
 * after a restart (a container's pid 1, say) the same pid is another process.
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as { code?: string }).code !== 'EPERM') return false;
  }
  if (startTime === undefined) return true;
  const now = startTimeOf(pid);
  return now === undefined || now === startTime;
}

function holderOf(lockFile: string): { pid: number; startTime: string | undefined } | undefined {
  try {
    const [pid, startTime] = readFileSync(lockFile, 'utf8').trim().split(' ');
    const n = Number(pid);
    return Number.isSafeInteger(n) && n > 0 ? { pid: n, startTime } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes one process at a time the owner of a SQLite store file: sequence numbers and the result
 * journal live in that process. The lock is `<file>.lock` holding the owner's pid and start time;
 * a lock whose process is gone (a crash, `kill -9`, a restart that reused the pid) is taken over.
 *
 * @example
 * const lock = lockStoreFile('/data/governance.db');
 * lock.release();
 */
export function lockStoreFile(file: string): { release(): void } {
  const lockFile = `${file}.lock`;
  const release = () => {
    held.delete(lockFile);
    rmSync(lockFile, { force: true });
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      try {
        writeSync(fd, `${process.pid} ${startTimeOf(process.pid) ?? ''}\n`);
      } finally {
        closeSync(fd);
      }
      held.add(lockFile);
      return { release };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = holderOf(lockFile);
      const ours = holder?.pid === process.pid;
      if (
        holder !== undefined &&
        (ours ? held.has(lockFile) : isAlive(holder.pid, holder.startTime || undefined))
      ) {
        throw new GovernanceError(
          'storage_failure',
          `The SQLite database ${file} is open in process ${holder.pid} (${lockFile}); one process at a time may use it. If that process is not a dcg service, delete the lock file.`,
        );
      }
      // Left by a process that is gone.
      rmSync(lockFile, { force: true });
    }
  }
  throw new GovernanceError(
    'storage_failure',
    `Cannot lock the SQLite database ${file} (${lockFile})`,
  );
}
