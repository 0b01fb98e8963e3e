import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `src/main.ts` as its own process and resolves with its URL once it prints "listening". */
export function spawnKgApi(env: Record<string, string>): Promise<{
  url: string;
  child: ChildProcess;
  output: () => string;
}> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
    { cwd: appDir, env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: 'pipe' },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kg-api did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ url: JSON.parse(line).url as string, child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`kg-api exited with ${code}:\n${out}`), { code, out }));
    });
  });
}

/** Waits for a child process to exit. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
