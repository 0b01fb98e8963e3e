import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessKgApp, inProcessKgApp } from './__fixtures__/in-process-app';

const KEY = 'graph-memory-limit-key-0123456789';
const MiB = 1024 * 1024;

describe('kg-api: the memory a graph may take (ingestion.maxGraphBytes)', () => {
  let kg: InProcessKgApp;
  const call = (path: string, init: { method?: string; type?: string; body?: string } = {}) =>
    kg.app.request(path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(init.type ? { 'content-type': init.type } : {}),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });

  beforeAll(async () => {
    kg = await inProcessKgApp('<urn:kept> <urn:label> "still here" .', {
      auth: { apiKeys: [{ name: 'ci', key: KEY }] },
      ingestion: { maxGraphBytes: 1 * MiB },
    });
  });
  afterAll(() => kg?.close());

  it('refuses a graph over the limit with 413 while ingesting, and keeps the old graph', async () => {
    // About 120,000 distinct triples: several MiB of terms and ids, far over 1 MiB.
    const lines: string[] = [];
    for (let i = 0; i < 120_000; i++)
      lines.push(`<urn:example:concept:${i}> <urn:label> "label number ${i}" .`);
    const response = await call('/v1/sources/vocab/graph', {
      method: 'PUT',
      type: 'application/n-triples',
      body: lines.join('\n'),
    });
    expect(response.status).toBe(413);
    const problem = (await response.json()) as { type: string; detail: string };
    expect(problem.type).toBe('urn:dcg:kg:graph_too_large');
    expect(problem.detail).toMatch(/nothing was changed/);
    const info = (await (await call('/v1/sources/vocab/graph')).json()) as { triples: number };
    expect(info.triples).toBe(1);
  });

  it('takes a graph within the limit', async () => {
    const response = await call('/v1/sources/vocab/graph', {
      method: 'PUT',
      type: 'application/n-triples',
      body: '<urn:a> <urn:label> "small" .\n<urn:b> <urn:label> "graph" .',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { triples: number }).triples).toBe(2);
  });
});
