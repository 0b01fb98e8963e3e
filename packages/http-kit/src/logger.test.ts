import { describe, expect, it } from 'vitest';
import { ConfigError } from './config';
import { createLogger, logLevelFromEnv } from './logger';

const capture = (level?: 'debug' | 'info' | 'warn' | 'error' | 'silent') => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('svc', {
    ...(level ? { level } : {}),
    write: (line) => lines.push(JSON.parse(line)),
    fields: { region: 'eu' },
  });
  return { logger, lines };
};

describe('createLogger', () => {
  it('writes one JSON object per line with time, level, name, base fields, message and fields', () => {
    const { logger, lines } = capture('info');
    logger.info('listening', { url: 'http://127.0.0.1:1' });
    expect(lines).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: 'info',
        name: 'svc',
        region: 'eu',
        msg: 'listening',
        url: 'http://127.0.0.1:1',
      },
    ]);
    expect(Object.keys(lines[0]!).slice(0, 5)).toEqual(['time', 'level', 'name', 'region', 'msg']);
  });

  it('drops lines below its level and writes nothing when silent', () => {
    const warn = capture('warn');
    warn.logger.debug('a');
    warn.logger.info('b');
    warn.logger.warn('c');
    warn.logger.error('d');
    expect(warn.lines.map((l) => l.msg)).toEqual(['c', 'd']);
    const silent = capture('silent');
    silent.logger.error('e');
    expect(silent.lines).toEqual([]);
  });

  it('gives children their own fields, leaving the parent as it was', () => {
    const { logger, lines } = capture('debug');
    const child = logger.child({ requestId: 'r1' });
    child.child({ step: 2 }).debug('deep');
    logger.debug('parent');
    expect(lines[0]).toMatchObject({ requestId: 'r1', step: 2, region: 'eu', msg: 'deep' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('writes errors as their message and stack', () => {
    const { logger, lines } = capture();
    logger.error('failed', { error: new Error('boom') });
    expect(lines[0]?.error).toEqual({ message: 'boom', stack: expect.stringContaining('boom') });
  });

  it('redacts secrets at any depth: headers, keys, passwords, tokens, URL passwords', () => {
    const { logger, lines } = capture('debug');
    const headers = new Headers({ authorization: 'Bearer sk-live-1', 'x-request-id': 'r1' });
    logger.child({ apiKey: 'child-secret' }).warn('upstream failed', {
      headers,
      request: {
        headers: {
          Authorization: 'Basic dXNlcjpwYXNz',
          'X-Api-Key': 'k-123',
          Accept: 'text/turtle',
        },
        body: { user: 'ann', password: 'hunter2', nested: [{ access_token: 't-1' }] },
      },
      upstream: 'https://ann:s3cret@graphdb.example/repositories/x',
      error: new Error('cannot reach postgres://dcg:pg-pass@db:5432/dcg'),
      count: 3,
    });
    const text = JSON.stringify(lines);
    for (const secret of [
      'sk-live-1',
      'child-secret',
      'dXNlcjpwYXNz',
      'k-123',
      'hunter2',
      't-1',
      's3cret',
      'pg-pass',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      apiKey: '[REDACTED]',
      headers: { authorization: '[REDACTED]', 'x-request-id': 'r1' },
      request: {
        headers: { Authorization: '[REDACTED]', 'X-Api-Key': '[REDACTED]', Accept: 'text/turtle' },
        body: { user: 'ann', password: '[REDACTED]', nested: [{ access_token: '[REDACTED]' }] },
      },
      upstream: 'https://ann:[REDACTED]@graphdb.example/repositories/x',
      error: { message: 'cannot reach postgres://dcg:[REDACTED]@db:5432/dcg' },
      count: 3,
    });
  });

  it('survives cycles and very deep objects', () => {
    const { logger, lines } = capture('info');
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    let deep: Record<string, unknown> = { token: 'deep-secret' };
    for (let i = 0; i < 50; i++) deep = { inner: deep };
    logger.info('odd shapes', { loop, deep });
    expect(lines[0]?.loop).toEqual({ name: 'loop', self: '[Circular]' });
    expect(JSON.stringify(lines[0])).not.toContain('deep-secret');
  });
});

describe('logLevelFromEnv', () => {
  it('accepts the documented levels in any case, and info when unset', () => {
    expect(logLevelFromEnv({})).toBe('info');
    expect(logLevelFromEnv({ LOG_LEVEL: '' })).toBe('info');
    expect(logLevelFromEnv({ LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(logLevelFromEnv({ LOG_LEVEL: 'silent' })).toBe('silent');
  });

  it('refuses any other value with a ConfigError naming LOG_LEVEL and the choices', () => {
    let error: unknown;
    try {
      logLevelFromEnv({ LOG_LEVEL: 'verbose' });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'LOG_LEVEL must be one of debug, info, warn, error, silent; not "verbose"',
    );
    expect((error as ConfigError).problems).toEqual([
      { key: 'LOG_LEVEL', message: 'must be one of debug, info, warn, error, silent' },
    ]);
  });
});
