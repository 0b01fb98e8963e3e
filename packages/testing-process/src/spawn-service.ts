import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** How to start an app: its folder, and the environment on top of this process's own. */
export interface ServiceCommand {
  /** The app's folder; `src/main.ts` in it is run, as `pnpm start` does. */
  appDir: string;
  /** Extra arguments after the entry file (e.g. `--once`). */
  args?: string[];
  env?: Record<string, string>;
  /** How long start-up may take before it is abandoned. Default 60 s (busy CI machines are slow). */
  startTimeoutMs?: number;
}

/** An app running as its own process. */
export interface SpawnedService {
  readonly child: ChildProcess;
  /** `url` of the app's "listening" log line. */
  readonly url: string;
  /** The whole "listening" log record (apps add their own fields, such as mcp-server's `mcp`). */
  readonly listening: Record<string, unknown>;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Its JSON log records so far. */
  records(): Record<string, unknown>[];
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
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
  const running = startProcess(command);
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
export async function runToExit(
  command: ServiceCommand,
): Promise<{ code: number | null; output: string; records: Record<string, unknown>[] }> {
  const running = startProcess(command);
  const timeoutMs = command.startTimeoutMs ?? 60_000;
  const timer = setTimeout(() => void running.stop(), timeoutMs);
  const code = await running.exited();
  clearTimeout(timer);
  return { code, output: running.output(), records: running.records() };
}

function startProcess(command: ServiceCommand) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@dcg/source',
      '--import',
      'tsx',
      join('src', 'main.ts'),
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
  let partial = '';
  const records: Record<string, unknown>[] = [];
  const listeners: ((record: Record<string, unknown>) => void)[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const record = parseRecord(line);
      if (!record) continue;
      records.push(record);
      for (const listener of listeners) listener(record);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
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
