import { fileURLToPath } from 'node:url';
import { ConfigError } from '@dcg/http-kit';
import { runToExit } from '@dcg/testing-process';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('readConfig', () => {
  it('has defaults for everything', () => {
    expect(readConfig({})).toMatchObject({
      PORT: 8093,
      HOST: '127.0.0.1',
      GOVERNANCE_URL: 'http://127.0.0.1:8080',
      DCG_ENVIRONMENT: 'production',
      STOP_DEADLINE_MS: 10_000,
    });
    expect(readConfig({ CHECK_INTERVAL: '30s', PORT: '0', DCG_API_KEY: '' })).toMatchObject({
      CHECK_INTERVAL: 30_000,
      PORT: 0,
    });
  });

  it('follows GOVERNANCE_API_PORT and reads the demo switches', () => {
    expect(readConfig({ GOVERNANCE_API_PORT: '9000', DCG_DEMO: '1' })).toMatchObject({
      GOVERNANCE_URL: 'http://127.0.0.1:9000',
      DCG_DEMO: true,
      DCG_DEMO_SCHEMA: 'dcg_demo',
    });
    expect(() => readConfig({ DCG_DEMO_SCHEMA: 'a;b' })).toThrow(/plain SQL identifier/);
  });

  it('names every bad variable', () => {
    expect(() =>
      readConfig({
        PORT: 'x',
        CHECK_INTERVAL: 'often',
        GOVERNANCE_URL: 'nope',
        STOP_DEADLINE_MS: '0',
      }),
    ).toThrow(
      /PORT: PORT must be a port number[\s\S]*GOVERNANCE_URL: GOVERNANCE_URL must be a URL[\s\S]*CHECK_INTERVAL: cannot read the duration "often"[\s\S]*STOP_DEADLINE_MS must be positive/,
    );
  });

  it('refuses an unknown LOG_LEVEL and bad metrics settings', () => {
    expect(readConfig({ LOG_LEVEL: 'WARN' }).LOG_LEVEL).toBe('warn');
    expect(() => readConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      /LOG_LEVEL: LOG_LEVEL must be one of debug, info, warn, error, silent/,
    );
    expect(readConfig({})).toMatchObject({ METRICS_ENABLED: true, METRICS_REQUIRE_KEY: true });
    expect(() => readConfig({ METRICS_KEY: 'short', METRICS_REQUIRE_KEY: 'maybe' })).toThrow(
      /METRICS_REQUIRE_KEY must be 1 or 0[\s\S]*METRICS_KEY must be at least 16 characters/,
    );
  });

  it('is a ConfigError of @dcg/http-kit with one problem per bad variable', () => {
    let error: unknown;
    try {
      readConfig({ PORT: 'x', LOG_LEVEL: 'verbose' });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems.map((p) => p.key)).toEqual(['PORT', 'LOG_LEVEL']);
  });

  it('stops the process with one JSON line and exit code 1, as the other apps do', async () => {
    const run = await runToExit({
      appDir: fileURLToPath(new URL('..', import.meta.url)),
      env: { PORT: 'eighty', LOG_LEVEL: 'silent', DCG_DEMO: '' },
    });
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'error',
      name: 'postgres-guardian',
      msg: 'invalid configuration',
      problems: [{ key: 'PORT', message: 'PORT must be a port number' }],
    });
    expect(run.stderr).toContain('- PORT: PORT must be a port number');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
