import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A governance-api process started from `src/main.ts`, as `pnpm start` runs it. */
export interface SpawnedApp {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves once the process has exited. */
  exited: () => Promise<void>;
}

/**
 * Spawns `src/main.ts` with `env` (on 127.0.0.1, a free port) and resolves with its URL once it
 * prints its "listening" line; rejects with its output if it exits first or takes over 30 s.
 *
 * @example
 * const app = await spawnApp({ DCG_CONFIG: configFile, DCG_DATA_DIR: dir });
 * app.child.kill('SIGKILL');
 */
export function spawnApp(env: Record<string, string>): Promise<SpawnedApp> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: appDir,
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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
        resolve({
          child,
          url: JSON.parse(line).url as string,
          output: () => out,
          exited: () => exit,
        });
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
