import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit, spawnService } from './spawn-service';

const appDir = fileURLToPath(new URL('./__fixtures__/echo-app', import.meta.url));

describe('spawnService', () => {
  it('starts an app, resolves with its listening record, and stops it with SIGTERM', async () => {
    const app = await spawnService({ appDir, args: ['hello', 'there'] });
    try {
      expect(app.listening).toMatchObject({ msg: 'listening', extra: 1 });
      expect(await (await fetch(app.url)).text()).toBe('hello there');
      expect(app.output()).toContain('not json: a plain line');
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
    const { code, output } = await runToExit({ appDir, env: { LOG_LEVEL: 'verbose' } });
    expect(code).toBe(1);
    expect(output).toContain('echo-app: LOG_LEVEL must be one of info, silent; not "verbose"');
  }, 60_000);
});
