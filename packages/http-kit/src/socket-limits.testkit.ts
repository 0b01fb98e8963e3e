import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Opens a TCP connection to the server at `url`, sends nothing, and resolves with the
 * milliseconds until the server closed it (`server.headersTimeoutMs` at work).
 *
 * @example
 * expect(await msUntilIdleSocketClosed(api.url)).toBeLessThan(3_000);
 */
export async function msUntilIdleSocketClosed(url: string): Promise<number> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => {});
  const started = performance.now();
  await new Promise((resolve) => socket.once('close', resolve));
  return performance.now() - started;
}

/** Temporary folders of one test file, removed together. */
export interface TemporaryDirs {
  /** A new empty folder. */
  make(): string;
  /** Removes every folder made. */
  removeAll(): void;
}

/**
 * Temporary folders named `<prefix>…` under the OS temp folder.
 *
 * @example
 * const dirs = temporaryDirs('kg-limits-');
 * afterAll(() => dirs.removeAll());
 */
export function temporaryDirs(prefix: string): TemporaryDirs {
  const made: string[] = [];
  return {
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll: () => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a service start rejected with, or `undefined` when it started (it is then closed again).
 *
 * @example
 * const failure = await startFailure(startKgApi({ dataDir, env: { NODE_ENV: 'production' } }));
 */
export function startFailure(starting: Promise<{ close(): Promise<void> }>): Promise<unknown> {
  return starting.then(
    async (service) => {
      await service.close();
      return undefined;
    },
    (error: unknown) => error,
  );
}
