import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from './errors';
import { KnowledgeBase } from './knowledge-base';
import { MemoryGraphPersistence } from './memory-graph-persistence.testkit';
import { SearchConfigSchema, type SourceConfig } from './source-config';
import { SourceIngestion, scheduledSources } from './source-ingestion';

const graph = JSON.stringify({
  '@id': 'https://ex.org/water',
  'http://www.w3.org/2004/02/skos/core#prefLabel': 'Water',
});

function source(id: string, extra: Partial<SourceConfig> = {}, ingestion = true): SourceConfig {
  return {
    id,
    name: id,
    modes: { ingestion: { enabled: ingestion }, passthrough: { enabled: false } },
    ...extra,
  };
}

describe('SourceIngestion', () => {
  let adapter: Server;
  let baseUrl: string;
  let requests = 0;
  const log: Array<{ message: string; fields: Record<string, unknown> }> = [];
  const logger = {
    info: (message: string, fields: Record<string, unknown>) => log.push({ message, fields }),
    warn: (message: string, fields: Record<string, unknown>) => log.push({ message, fields }),
  };

  beforeAll(async () => {
    // A real source adapter: `/empty/...` answers a document with no triples, the rest a graph,
    // each after a pause long enough for a second pull to arrive meanwhile.
    adapter = createServer((request, response) => {
      requests += 1;
      setTimeout(() => {
        response.setHeader('content-type', 'application/ld+json');
        response.end(request.url?.startsWith('/empty/') ? '{}' : graph);
      }, 100);
    });
    await new Promise<void>((resolve) => adapter.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(adapter.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => adapter.close(() => resolve())));

  async function ingestion(sources: SourceConfig[]) {
    const kb = await KnowledgeBase.open({
      sources,
      search: SearchConfigSchema.parse({}),
      persistence: new MemoryGraphPersistence(),
    });
    return { kb, ingestion: new SourceIngestion(kb, { timeoutMs: 5_000, maxBytes: 1e6 }, logger) };
  }

  it('runs two pulls of the same source at once as one', async () => {
    const { kb, ingestion: pulls } = await ingestion([source('demo', { baseUrl })]);
    const before = requests;
    const first = pulls.pull('demo');
    const second = pulls.pull('demo');
    expect(pulls.running).toBe(1);
    const [a, b] = await Promise.all([first, second]);
    expect(requests - before).toBe(1);
    expect(a).toEqual(b);
    expect(a.triples).toBe(1);
    expect(kb.search('water', { offset: 0, limit: 10 }).results).toEqual(['https://ex.org/water']);
    expect(pulls.running).toBe(0);
    expect(log.some((entry) => entry.message === 'source ingested')).toBe(true);
  });

  it('keeps the graph when the adapter sends no triples, with upstream_malformed', async () => {
    const { kb, ingestion: pulls } = await ingestion([
      source('demo', { baseUrl }),
      source('hollow', { baseUrl: `${baseUrl}/empty` }),
    ]);
    await pulls.pull('demo');
    const error = await pulls.pull('hollow').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('upstream_malformed');
    expect(kb.graphInfo('demo').triples).toBe(1);
    expect(log.at(-1)).toMatchObject({
      message: 'source ingestion failed',
      fields: { sourceId: 'hollow', code: 'upstream_malformed' },
    });
  });

  it('refuses sources that take no graphs (ingestion disabled) and unknown ones', async () => {
    const { kb, ingestion: pulls } = await ingestion([source('off', { baseUrl }, false)]);
    const disabled = await pulls.pull('off').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(disabled) && disabled.code).toBe('ingestion_disabled');
    expect(() => kb.sourceAcceptingUploads('off')).toThrow(/ingestion is not enabled/);
    const unknown = await pulls.pull('nope').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(unknown) && unknown.code).toBe('unknown_source');
  });
});

describe('scheduledSources', () => {
  it('schedules sources with ingestion, a schedule and a baseUrl; names those without baseUrl', () => {
    const schedule = '0 3 * * *';
    const ingestion = (extra: object) => ({ ingestion: { enabled: true, schedule }, ...extra });
    expect(
      scheduledSources([
        {
          ...source('pulled', { baseUrl: 'https://a.example' }),
          modes: { ...ingestion({}), passthrough: { enabled: false } },
        },
        { ...source('uploaded'), modes: { ...ingestion({}), passthrough: { enabled: false } } },
        source('unscheduled', { baseUrl: 'https://b.example' }),
        {
          ...source('off', { baseUrl: 'https://c.example' }),
          modes: { ingestion: { enabled: false, schedule }, passthrough: { enabled: false } },
        },
      ]),
    ).toEqual({ scheduled: [{ sourceId: 'pulled', schedule }], unschedulable: ['uploaded'] });
  });
});
