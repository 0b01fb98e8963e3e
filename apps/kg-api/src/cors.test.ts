import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningKgApi, startKgApi } from './server';

describe('CORS', () => {
  let dir: string;
  let api: RunningKgApi;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-cors-'));
    api = await startKgApi({
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
      config: { cors: { allowedOrigins: ['https://app.example.org/'] } },
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers preflights and requests from a configured origin', async () => {
    const preflight = await fetch(`${api.url}/v1/graph/sparql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    const search = await fetch(`${api.url}/v1/search/query?term=x`, {
      headers: { origin: 'https://app.example.org' },
    });
    expect(search.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(search.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/i);
  });

  it('gives other origins no CORS permission', async () => {
    const search = await fetch(`${api.url}/v1/search/query?term=x`, {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(search.headers.get('access-control-allow-origin')).toBeNull();
  });
});
