import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, parseConfig } from './config';

const Schema = z.strictObject({
  port: z.number().int().default(8080),
  auth: z
    .strictObject({
      apiKeys: z.array(z.strictObject({ key: z.string().min(8), role: z.string() })).default([]),
    })
    .default({ apiKeys: [] }),
});

const dir = mkdtempSync(join(tmpdir(), 'http-kit-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loadConfig', () => {
  it('applies defaults without a file', () => {
    expect(loadConfig(Schema, { path: undefined })).toEqual({ port: 8080, auth: { apiKeys: [] } });
  });

  it('reads YAML and JSON', () => {
    expect(loadConfig(Schema, { path: file('a.yaml', 'port: 9000\n') }).port).toBe(9000);
    expect(loadConfig(Schema, { path: file('a.json', '{"port": 9001}') }).port).toBe(9001);
  });

  it('names an unknown key', () => {
    const path = file('b.yaml', 'port: 1\nauth:\n  apiKey: []\n');
    expect(() => loadConfig(Schema, { path })).toThrowError(/auth\.apiKey: unknown key/);
  });

  it('names an invalid nested key', () => {
    const path = file('c.yaml', 'auth:\n  apiKeys:\n    - key: short\n      role: admin\n');
    try {
      loadConfig(Schema, { path });
      expect.unreachable();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).problems[0]?.key).toBe('auth.apiKeys[0].key');
    }
  });

  it('explains a value that no option of a union takes, naming the key and the reason', () => {
    const Origin = z
      .string()
      .refine((value) => URL.canParse(value) && new URL(value).origin === value, {
        message: 'must be an origin such as https://app.example.com',
      });
    const Cors = z.strictObject({
      cors: z.strictObject({ origin: z.union([Origin, z.array(Origin)]) }),
    });
    const problems = (origin: unknown) => {
      try {
        parseConfig(Cors, { cors: { origin } });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems(42)).toEqual([
      { key: 'cors.origin', message: 'expected string or array, received number' },
    ]);
    expect(problems(['https://a.example.com', 'https://b.example.com/path'])).toEqual([
      { key: 'cors.origin[1]', message: 'must be an origin such as https://app.example.com' },
    ]);
    expect(problems('https://a.example.com/path')).toEqual([
      { key: 'cors.origin', message: 'must be an origin such as https://app.example.com' },
    ]);
    expect(JSON.stringify(problems({ list: [] }))).not.toContain('Invalid input');
  });

  it('explains an unreadable or malformed file', () => {
    expect(() => loadConfig(Schema, { path: join(dir, 'missing.yaml') })).toThrowError(
      /Cannot read/,
    );
    expect(() => loadConfig(Schema, { path: file('d.json', '{port') })).toThrowError(
      /not valid YAML or JSON/,
    );
  });
});
