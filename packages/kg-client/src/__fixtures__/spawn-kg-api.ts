import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/kg-api/src/main.ts of this workspace. */
export const kgApiMain = fileURLToPath(
  new URL('../../../../apps/kg-api/src/main.ts', import.meta.url),
);

/** A kg-api process started by {@link spawnKgApi}. */
export interface SpawnedKgApi {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the real kg-api as its own process, as an operator would (`tsx --conditions=@dcg/source
 * src/main.ts` with PORT=0, a temp DCG_DATA_DIR and a temp DCG_CONFIG), and resolves with the URL
 * it prints in its "listening" line.
 */
export async function spawnKgApi(
  config: unknown,
  env: Record<string, string> = {},
): Promise<SpawnedKgApi> {
  const dir = await mkdtemp(join(tmpdir(), 'dcg-kg-client-kg-api-'));
  const configPath = join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(config));
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', kgApiMain],
    {
      cwd: fileURLToPath(new URL('../../../../apps/kg-api/', import.meta.url)),
      env: {
        ...process.env,
        PORT: '0',
        DCG_DATA_DIR: join(dir, 'data'),
        DCG_CONFIG: configPath,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = async () => {
    await terminate(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const url = await listeningUrl(child);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** True when the kg-api app is present in this checkout. */
export function kgApiPresent(): boolean {
  return existsSync(kgApiMain);
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`kg-api did not start in 60 s:\n${out}\n${err}`)),
      60_000,
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      err += chunk;
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      for (const line of out.split('\n')) {
        if (!line.includes('"msg":"listening"')) continue;
        try {
          const { url } = JSON.parse(line) as { url?: string };
          if (typeof url === 'string') {
            clearTimeout(timer);
            // Keep draining the pipes so a chatty server never blocks.
            child.stdout?.removeAllListeners('data');
            child.stdout?.resume();
            resolve(url);
            return;
          }
        } catch {
          // a partial line: wait for the rest
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kg-api exited with ${code} before listening:\n${out}\n${err}`));
    });
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
