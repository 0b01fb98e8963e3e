import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createLogger, parseConfig } from '@dcg/http-kit';
import { describe, expect, it } from 'vitest';
import { KgApiConfigSchema } from './config';
import { startKgApi } from './server';

const scheduled = (extra: Record<string, unknown>) => ({
  sources: [
    {
      id: 'nightly',
      name: 'Nightly',
      modes: {
        ingestion: { enabled: true, schedule: '0 3 * * *' },
        passthrough: { enabled: false },
      },
      ...extra,
    },
  ],
});

describe('kg-api configuration', () => {
  it('refuses a source with a schedule but no baseUrl, naming the key', () => {
    let error: unknown;
    try {
      parseConfig(KgApiConfigSchema, scheduled({}), 'kg-api configuration');
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems).toEqual([
      {
        key: 'sources[0].modes.ingestion.schedule',
        message: 'a schedule needs the source to have a baseUrl to pull from',
      },
    ]);
  });

  it('accepts the same source with a baseUrl', () => {
    const config = parseConfig(KgApiConfigSchema, scheduled({ baseUrl: 'https://vocab.example' }));
    expect(config.sources[0]?.modes.ingestion.schedule).toBe('0 3 * * *');
  });

  it('does not start with a schedule and no baseUrl', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kg-config-'));
    try {
      await expect(
        startKgApi({
          dataDir: dir,
          config: scheduled({}),
          logger: createLogger('kg-api-test', { level: 'silent' }),
        }),
      ).rejects.toThrow(/sources\[0\]\.modes\.ingestion\.schedule: a schedule needs/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['baseUrl', 'https://user:s3cret@vocab.example'],
    ['sparqlEndpoint', 'http://dba:dba@127.0.0.1:8890/sparql'],
    ['searchEndpoint', 'https://:token@search.example/v1/search/query'],
    ['baseUrl', 'https://user@vocab.example'],
  ])('refuses credentials in %s, naming upstreamAuth, never echoing them', (key, url) => {
    let error: unknown;
    try {
      parseConfig(
        KgApiConfigSchema,
        // The schedule needs a baseUrl: a clean one, unless it is the one under test.
        scheduled({ baseUrl: 'https://vocab.example', [key]: url }),
      );
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      {
        key: `sources[0].${key}`,
        message: expect.stringMatching(/upstreamAuth\.basic .*passwordFromEnv/),
      },
    ]);
    expect(JSON.stringify(problems)).not.toMatch(/s3cret|dba:dba|token/);
    expect((error as Error).message).not.toMatch(/s3cret|dba:dba|:token/);
  });

  it('accepts publicUrl without a trailing slash and refuses one with a query or credentials', () => {
    expect(parseConfig(KgApiConfigSchema, { publicUrl: 'https://kg.example/api/' }).publicUrl).toBe(
      'https://kg.example/api',
    );
    for (const publicUrl of [
      'https://kg.example/?a=1',
      'https://kg.example/#x',
      'https://u:p@kg.example',
      'ftp://kg.example',
    ]) {
      expect(() => parseConfig(KgApiConfigSchema, { publicUrl })).toThrow(/publicUrl/);
    }
  });
});
