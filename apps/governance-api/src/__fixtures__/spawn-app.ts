import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Spawns `src/main.ts` as `pnpm start` does and resolves with its URL from the "listening" line.
 *
 * @example
 * const { child, url } = await spawnApp({ DCG_DATA_DIR: dir });
 */
export function spawnApp(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: appDir,
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listening line within 30 s:\n${out}`)),
      30_000,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url as string, output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code} before listening:\n${out}`));
    });
  });
}

/** Resolves once the child has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve()
      : child.once('exit', () => resolve()),
  );
}
