import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

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
});
