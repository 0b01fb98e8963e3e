import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit, spawnService, startProcess } from './spawn-service';

const appDir = fileURLToPath(new URL('./__fixtures__/echo-app', import.meta.url));
const waiter = fileURLToPath(new URL('./__fixtures__/wait-for-sigterm.ts', import.meta.url));

describe('spawnService', () => {
  it('starts an app, resolves with its listening record, and stops it with SIGTERM', async () => {
    const app = await spawnService({ appDir, args: ['hello', 'there'] });
    try {
      expect(app.listening).toMatchObject({ msg: 'listening', extra: 1 });
      expect(await (await fetch(app.url)).text()).toBe('hello there');
      expect(app.output()).toContain('not json: a plain line');
      expect(app.stdout()).toContain('not json: a plain line');
      expect(app.stderr()).toBe('');
    } finally {
      await app.stop();
    }
    expect(await app.exited()).toBe(0);
    expect(app.records().map((record) => record.msg)).toEqual(['listening', 'stopping']);
  }, 60_000);

  it('rejects with the output when the app exits before listening', async () => {
    await expect(spawnService({ appDir, env: { LOG_LEVEL: 'verbose' } })).rejects.toThrow(
      /exited \(1\) before listening:\n.*LOG_LEVEL must be one of/,
    );
  }, 60_000);
});

describe('runToExit', () => {
  it('resolves with the exit code and output of a refused start', async () => {
    const { code, output, stdout, stderr } = await runToExit({
      appDir,
      env: { LOG_LEVEL: 'verbose' },
    });
    expect(code).toBe(1);
    expect(output).toContain('echo-app: LOG_LEVEL must be one of info, silent; not "verbose"');
    expect(stderr).toBe('echo-app: LOG_LEVEL must be one of info, silent; not "verbose"\n');
    expect(stdout).toBe('');
  }, 60_000);
});

describe('startProcess', () => {
  it('runs an entry file in a working directory without node_modules, until signalled', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'dcg-entry-')));
    try {
      const running = startProcess({ appDir: cwd, entry: waiter });
      const deadline = Date.now() + 30_000;
      while (!running.stdout().includes('\n') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(running.stdout()).toBe(`cwd: ${cwd}\n`);
      running.child.kill('SIGTERM');
      expect(await running.exited()).toBe(2);
      expect(running.stderr()).toBe('SIGTERM: abandoning\n');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
