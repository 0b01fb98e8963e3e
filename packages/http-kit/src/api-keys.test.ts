import { describe, expect, it } from 'vitest';
import { resolveApiKeys } from './api-keys';
import { ConfigError } from './config';

describe('resolveApiKeys', () => {
  const entries = [
    { name: 'ops', key: 'a-long-enough-secret', role: 'admin' },
    { name: 'ci', keyFromEnv: 'CI_KEY', role: 'writer', policies: ['p1'] },
  ];

  it('resolves literal keys and environment references, keeping the other fields', () => {
    const { keys, developmentKey } = resolveApiKeys(entries, {
      env: { CI_KEY: 'another-long-secret' },
      developmentRole: 'admin',
    });
    expect(keys).toEqual([
      { name: 'ops', key: 'a-long-enough-secret', role: 'admin' },
      { name: 'ci', key: 'another-long-secret', role: 'writer', policies: ['p1'] },
    ]);
    expect(developmentKey).toBeUndefined();
  });

  it('names the key whose variable is unset or too short', () => {
    for (const env of [{}, { CI_KEY: 'short' }]) {
      try {
        resolveApiKeys(entries, { env });
        expect.unreachable();
      } catch (error) {
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).problems[0]?.key).toBe('auth.apiKeys[1].keyFromEnv');
        expect((error as Error).message).toContain('CI_KEY');
      }
    }
  });

  it('makes a random development key only when none is configured and it is asked for', () => {
    const none: { name: string; role: string }[] = [];
    const one = resolveApiKeys(none, { env: {}, developmentRole: 'admin' });
    const two = resolveApiKeys(none, { env: {}, developmentRole: 'admin' });
    expect(one.developmentKey).toMatch(/^dcg-dev-[0-9a-f]{32}$/);
    expect(one.developmentKey).not.toBe(two.developmentKey);
    expect(one.keys).toEqual([{ name: 'development', role: 'admin', key: one.developmentKey }]);
    expect(resolveApiKeys(none, { env: {} })).toEqual({ keys: [] });
  });

  it('uses a development key it is given (a launcher shares it), never a short one, never over configured keys', () => {
    const none: { name: string; role: string }[] = [];
    const given = 'dcg-dev-shared-by-the-launcher-0123';
    const shared = resolveApiKeys(none, {
      env: {},
      developmentRole: 'admin',
      developmentKey: given,
    });
    expect(shared).toEqual({
      keys: [{ name: 'development', role: 'admin', key: given }],
      developmentKey: given,
    });
    expect(() =>
      resolveApiKeys(none, { env: {}, developmentRole: 'admin', developmentKey: 'short' }),
    ).toThrow(/auth\.developmentKey: the development key given is shorter than 16/);
    const configured = [{ name: 'ops', key: 'a-configured-key-0123456789', role: 'admin' }];
    expect(
      resolveApiKeys(configured, { env: {}, developmentRole: 'admin', developmentKey: given }),
    ).toEqual({ keys: configured });
  });
});

describe('resolveApiKeys in production', () => {
  it('makes no development key and refuses to start without keys, saying how to configure them', () => {
    const none: Array<{ name: string; key: string; role: string }> = [];
    for (const options of [
      { env: { NODE_ENV: 'production' } },
      { env: { NODE_ENV: 'production', LOG_LEVEL: 'silent' } },
      // Not only the exact lower-case word: any value but development or test.
      { env: { NODE_ENV: 'Production' } },
      { env: { NODE_ENV: 'prod' } },
      { env: {}, production: true },
    ]) {
      try {
        resolveApiKeys(none, { ...options, developmentRole: 'admin' });
        expect.unreachable();
      } catch (error) {
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).problems[0]?.key).toBe('auth.apiKeys');
        // It names the value that made it production, so `NODE_ENV=prod` is not a mystery.
        const named = options.env.NODE_ENV ? `NODE_ENV=${options.env.NODE_ENV}` : 'production mode';
        expect((error as ConfigError).message).toContain(`in production (${named}: any NODE_ENV`);
        expect((error as ConfigError).message).toMatch(/keyFromEnv: DCG_OPS_KEY, role: admin/);
      }
    }
  });

  it('starts with configured keys and no development key', () => {
    const result = resolveApiKeys([{ name: 'ops', key: 'a-long-enough-secret', role: 'admin' }], {
      env: { NODE_ENV: 'production' },
      developmentRole: 'admin',
    });
    expect(result.keys).toHaveLength(1);
    expect(result.developmentKey).toBeUndefined();
  });
});
