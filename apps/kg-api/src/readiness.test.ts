import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURTLE } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const WRITER = 'writer-key-0123456789abcdef';

describe('readiness', () => {
  let dir: string;
  let api: RunningKgApi;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-ready-'));
    api = await startKgApi({
      dataDir: join(dir, 'data'),
      logger: createLogger('test', { level: 'silent' }),
      config: {
        sources: [
          {
            id: 'v',
            name: 'v',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
        ],
        auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is ready while graphs can be stored, and says so when they cannot', async () => {
    const ready = await fetch(`${api.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, storage: 'writable' });

    await rm(join(dir, 'data'), { recursive: true, force: true });
    const notReady = await fetch(`${api.url}/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ ready: false, storage: 'not writable' });
    expect((await fetch(`${api.url}/health`)).status).toBe(200);

    // A write that cannot be made durable is refused, not acknowledged.
    const put = await fetch(`${api.url}/v1/sources/v/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle', authorization: `Bearer ${WRITER}` },
      body: TURTLE,
    });
    expect(put.status).toBe(503);
    expect(((await put.json()) as { title: string }).title).toBe('Could not store the graph');
    const search = await fetch(`${api.url}/v1/search/query?term=water`);
    expect(((await search.json()) as { totalResults: number }).totalResults).toBe(0);
  });
});
