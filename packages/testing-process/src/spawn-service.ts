import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// tsx from this package, not from the child's folder: a command may run in a folder with no
// node_modules (an example file run in a temporary working directory).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** How to start an app: its folder, and the environment on top of this process's own. */
export interface ServiceCommand {
  /** The app's folder, its working directory; `src/main.ts` in it is run, as `pnpm start` does. */
  appDir: string;
  /** Another file to run instead of `src/main.ts` (absolute, or relative to `appDir`). */
  entry?: string;
  /** Extra arguments after the entry file (e.g. `--once`). */
  args?: string[];
  env?: Record<string, string>;
  /** How long start-up may take before it is abandoned. Default 60 s (busy CI machines are slow). */
  startTimeoutMs?: number;
}

/** A process started from a `ServiceCommand`. */
export interface RunningProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** What it printed on stderr so far (where the apps say why they refuse or could not run). */
  stderr(): string;
  /** Its JSON log records so far. */
  records(): Record<string, unknown>[];
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** An app running as its own process, listening. */
export interface SpawnedService extends RunningProcess {
  /** `url` of the app's "listening" log line. */
  readonly url: string;
  /** The whole "listening" log record (apps add their own fields, such as mcp-server's `mcp`). */
  readonly listening: Record<string, unknown>;
}

/**
 * Spawns `src/main.ts` of an app with tsx and the `@dcg/source` condition (on a free port unless
 * `PORT` is given) and resolves once it logs "listening"; rejects with its output when it exits
 * first or takes longer than the start-up bound.
 *
 * @example
 * const app = await spawnService({ appDir, env: { DCG_DATA_DIR: dir } });
 * await fetch(`${app.url}/health`);
 * await app.stop();
 */
export function spawnService(command: ServiceCommand): Promise<SpawnedService> {
  const running = launch(command);
  const timeoutMs = command.startTimeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void running.stop();
      reject(new Error(`no "listening" line within ${timeoutMs} ms:\n${running.output()}`));
    }, timeoutMs);
    running.onRecord((record) => {
      if (record.msg !== 'listening' || typeof record.url !== 'string') return;
      clearTimeout(timer);
      resolve({ ...running, url: record.url, listening: record });
    });
    running.child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening:\n${running.output()}`));
    });
  });
}

/**
 * Runs `src/main.ts` of an app to its end (a start-up refusal, a `--once` run) and resolves with
 * its exit code and output.
 *
 * @example
 * const { code, output } = await runToExit({ appDir, env: { LOG_LEVEL: 'verbose' } });
 */
export async function runToExit(command: ServiceCommand): Promise<{
  code: number | null;
  output: string;
  stdout: string;
  stderr: string;
  records: Record<string, unknown>[];
}> {
  const running = launch(command);
  const timeoutMs = command.startTimeoutMs ?? 60_000;
  const timer = setTimeout(() => void running.stop(), timeoutMs);
  const code = await running.exited();
  clearTimeout(timer);
  return {
    code,
    output: running.output(),
    stdout: running.stdout(),
    stderr: running.stderr(),
    records: running.records(),
  };
}

/**
 * Starts a command without waiting for anything: for a process that never logs "listening" (a
 * `--once` run to signal half-way, an example file) and that the test follows itself.
 *
 * @example
 * const once = startProcess({ appDir, args: ['--once'] });
 * once.child.kill('SIGTERM');
 * expect(await once.exited()).toBe(2);
 */
export function startProcess(command: ServiceCommand): RunningProcess {
  return launch(command);
}

function launch(command: ServiceCommand) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@dcg/source',
      '--import',
      tsxLoader,
      command.entry ?? join('src', 'main.ts'),
      ...(command.args ?? []),
    ],
    {
      cwd: command.appDir,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const printed = { stdout: '', stderr: '' };
  // Per stream: a line cut between two chunks of one stream is not joined to the other's.
  const partial = { stdout: '', stderr: '' };
  const records: Record<string, unknown>[] = [];
  const listeners: ((record: Record<string, unknown>) => void)[] = [];
  const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    printed[stream] += text;
    const lines = (partial[stream] + text).split('\n');
    partial[stream] = lines.pop() ?? '';
    for (const line of lines) {
      const record = parseRecord(line);
      if (!record) continue;
      records.push(record);
      for (const listener of listeners) listener(record);
    }
  };
  child.stdout.on('data', onData('stdout'));
  child.stderr.on('data', onData('stderr'));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exit;
    clearTimeout(timer);
  };
  return {
    child,
    output: () => output,
    stdout: () => printed.stdout,
    stderr: () => printed.stderr,
    records: () => [...records],
    exited: () => exit,
    stop,
    onRecord: (listener: (record: Record<string, unknown>) => void) => listeners.push(listener),
  };
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
