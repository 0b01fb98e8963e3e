import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MarketplaceSearchQuerySchema } from '@dcg/governance-schema';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateMarketplace, systemUrn } from './__fixtures__/marketplace-corpus';
import type { EmbeddingStore } from './embedding-store';
import { createAzureOpenAIProvider } from './http-embedding-provider';
import type { InstanceSource } from './index-sync';
import type { SearchableInstance } from './instance-text';
import { instanceKey } from './lexical-index';
import { MarketplaceSearch } from './marketplace-search';
import { type FakeEmbeddingsApi, startFakeEmbeddingsApi } from './node/embeddings-api.testkit';
import { openSqliteEmbeddingStore } from './node/sqlite-embedding-store';

const KEY = 'test-key-0123456789abcdef0123456789';
const dir = mkdtempSync(join(tmpdir(), 'dcg-mps-'));
let api: FakeEmbeddingsApi;
const open: MarketplaceSearch[] = [];
const stores: EmbeddingStore[] = [];

beforeAll(async () => {
  api = await startFakeEmbeddingsApi({
    apiKey: KEY,
    deployments: { small: 'text-embedding-3-small', large: 'text-embedding-3-large' },
  });
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const s of stores.splice(0)) await s.close();
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

class MemorySource implements InstanceSource {
  constructor(public instances: SearchableInstance[]) {}
  async listInstances(filter: { environment?: string }) {
    return this.instances.filter(
      (i) => filter.environment === undefined || i.environment === filter.environment,
    );
  }
}

const provider = (deployment: 'small' | 'large' = 'small', over: { maxRetries?: number } = {}) =>
  createAzureOpenAIProvider({
    endpoint: api.url,
    instanceName: 'test',
    deploymentName: deployment,
    apiVersion: '2024-10-21',
    apiKey: KEY,
    model: deployment === 'small' ? 'text-embedding-3-small' : 'text-embedding-3-large',
    dimensions: 256,
    maxRetries: over.maxRetries ?? 0,
  });

async function setup(
  options: {
    file?: string;
    instances?: SearchableInstance[];
    provider?: ReturnType<typeof provider> | null;
    retryDelayMs?: number;
    maxConcurrentQueryEmbeddings?: number;
    minVectorSimilarity?: number;
  } = {},
) {
  const store = await openSqliteEmbeddingStore({
    file: options.file ?? join(dir, `${crypto.randomUUID()}.db`),
  });
  stores.push(store);
  const source = new MemorySource(
    options.instances ?? generateMarketplace({ environment: 'production', count: 40 }),
  );
  const search = new MarketplaceSearch({
    store,
    provider: options.provider === undefined ? provider() : options.provider,
    source,
    batchSize: 8,
    retryDelayMs: options.retryDelayMs ?? 50,
    maxConcurrentQueryEmbeddings: options.maxConcurrentQueryEmbeddings ?? 8,
    ...(options.minVectorSimilarity === undefined
      ? {}
      : { minVectorSimilarity: options.minVectorSimilarity }),
    contractsOf: async (instances) =>
      new Map(
        instances.map(({ environment, systemId }) => {
          const status = systemId.includes('online') ? 'violated' : 'compliant';
          const port = { id: `${systemId.replace(':dp:', ':cmp:')}:port`, status } as const;
          return [
            instanceKey(environment, systemId),
            { compliance: status, dataContracts: [port] },
          ];
        }),
      ),
  });
  open.push(search);
  await search.start();
  return { store, source, search };
}

const q = (input: Record<string, unknown>) =>
  MarketplaceSearchQuerySchema.parse({ environment: 'production', ...input });

describe('MarketplaceSearch', () => {
  it('embeds every instance at start, stores them, and answers hybrid searches saying why', async () => {
    const { search, store } = await setup();
    await search.idle();
    expect(await search.status()).toMatchObject({
      enabled: true,
      instances: 40,
      embedded: 40,
      pending: 0,
    });
    expect(
      await store.listEmbeddings('azure_openai:text-embedding-3-small:256', 'production'),
    ).toHaveLength(40);
    const result = await search.search(q({ q: 'receivables debtor bucket' }));
    expect(result.mode).toBe('hybrid');
    expect(result.hits[0]?.systemId).toMatch(/ar-aging/);
    expect(result.hits[0]?.matchedBy).toEqual(expect.arrayContaining(['words', 'meaning']));
    expect(result.hits[0]?.why).toMatch(
      /^Words: .*"debtor".* \(rank 1 by words\)\. Close in meaning: similarity 0\.\d\d \(rank \d+ by meaning\)\. Found by words and by meaning/,
    );
  });

  it('leaves vector hits below the similarity floor out: a query about nothing finds nothing', async () => {
    const instances = generateMarketplace({ environment: 'production', count: 12 });
    const floored = await setup({ instances }); // the provider's floor (0.2 for text-embedding-3)
    const unfloored = await setup({ instances, minVectorSimilarity: -1 });
    await Promise.all([floored.search.idle(), unfloored.search.idle()]);
    const nonsense = q({ q: 'zqxv wplmh' });

    expect(await floored.search.search(nonsense)).toMatchObject({ mode: 'hybrid', hits: [] });
    // Without a floor, the nearest instances pad the answer although nothing matches.
    const padded = await unfloored.search.search(nonsense);
    expect(padded.hits.length).toBeGreaterThan(0);
    expect(padded.hits.every((h) => h.matchedBy.join() === 'meaning')).toBe(true);

    const real = await floored.search.search(q({ q: 'receivables debtor bucket' }));
    expect(real.mode).toBe('hybrid');
    expect(real.hits.some((h) => h.matchedBy.includes('meaning'))).toBe(true);
    for (const hit of real.hits)
      if (hit.vector) expect(hit.vector.similarity).toBeGreaterThanOrEqual(0.2);
  });

  it('finds through a typo and says what was meant', async () => {
    const { search } = await setup();
    await search.idle();
    const result = await search.search(q({ q: 'recievables' }));
    expect(result.suggestions).toEqual(['receivables']);
    expect(result.hits[0]?.systemId).toMatch(/ar-aging/);
    expect(result.hits[0]?.why).toMatch(/"receivable" \(read for "recievables"\)/);
    expect((await search.search(q({ q: 'receivables' }))).suggestions).toBeUndefined();
  });

  it('puts an exact URN or name first', async () => {
    const { search } = await setup();
    await search.idle();
    const urn = systemUrn('finance', 'fx-rates', 'Online');
    const byUrn = await search.search(q({ q: urn }));
    expect(byUrn.hits[0]).toMatchObject({
      systemId: urn,
      matchedBy: expect.arrayContaining(['exact-urn']),
    });
    const byName = await search.search(q({ q: 'general ledger wholesale' }));
    expect(byName.hits[0]).toMatchObject({
      systemId: systemUrn('finance', 'general-ledger', 'Wholesale'),
      matchedBy: expect.arrayContaining(['exact-name']),
    });
  });

  it('filters by kind and compliance and reports compliance on hits', async () => {
    const { search } = await setup();
    await search.idle();
    const violated = await search.search(q({ q: 'invoices', compliance: 'violated' }));
    expect(violated.hits.length).toBeGreaterThan(0);
    expect(
      violated.hits.every((h) => h.compliance === 'violated' && h.systemId.includes('online')),
    ).toBe(true);
    expect(violated.hits[0]?.dataContracts).toEqual([
      { id: `${violated.hits[0]?.systemId.replace(':dp:', ':cmp:')}:port`, status: 'violated' },
    ]);
    expect(
      (await search.search(q({ q: 'invoices', kind: 'outputport' }))).hits.length,
    ).toBeGreaterThan(0);
    expect((await search.search(q({ q: 'invoices', kind: 'biproject' }))).hits).toEqual([]);
  });

  it('searches every environment by meaning when none is given, one page at a time', async () => {
    const { search } = await setup({
      instances: [
        ...generateMarketplace({ environment: 'production', count: 30 }),
        ...generateMarketplace({ environment: 'staging', count: 30 }),
      ],
    });
    await search.idle();
    const everywhere = MarketplaceSearchQuerySchema.parse({
      q: 'receivables debtor bucket',
      limit: 5,
    });
    const first = await search.search(everywhere);
    expect(first.mode).toBe('hybrid');
    expect(first.offset).toBe(0);
    expect(first.hits[0]?.systemId).toMatch(/ar-aging/);
    expect(first.hits[0]?.matchedBy).toContain('meaning');
    // Paging walks the same ranking: no hit twice, and the last page has no nextOffset.
    const seen = first.hits.map((h) => instanceKey(h.environment, h.systemId));
    let next = first.nextOffset;
    expect(next).toBe(5);
    while (next !== undefined) {
      const page = await search.search({ ...everywhere, offset: next });
      expect(page.offset).toBe(next);
      seen.push(...page.hits.map((h) => instanceKey(h.environment, h.systemId)));
      next = page.nextOffset;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const whole = await search.search({ ...everywhere, limit: 50 });
    expect(whole.hits.map((h) => instanceKey(h.environment, h.systemId))).toEqual(seen);
    expect(new Set(whole.hits.map((h) => h.environment))).toEqual(
      new Set(['production', 'staging']),
    );
    // The environment is a filter over the same ranking.
    const staging = await search.search({ ...everywhere, environment: 'staging', limit: 50 });
    expect(staging.hits.map((h) => instanceKey(h.environment, h.systemId))).toEqual(
      seen.filter((key) => key.startsWith('staging\u0000')),
    );
  });

  it('indexes a deploy at once and embeds only it; an undeploy leaves search and store', async () => {
    const { search, store, source } = await setup();
    await search.idle();
    const before = api.requests.length;
    const instance: SearchableInstance = {
      systemId: 'urn:dmb:dp:research:telescope:0',
      environment: 'production',
      deployedAt: new Date().toISOString(),
      descriptor: {
        name: 'Telescope Observations',
        kind: 'dataproduct',
        description: 'Star brightness measurements',
      },
    };
    source.instances.push(instance);
    await search.onDeployed(instance);
    expect(api.requests.slice(before).map((r) => r.inputs)).toEqual([1]);
    expect((await search.search(q({ q: 'star brightness' }))).hits[0]?.systemId).toBe(
      instance.systemId,
    );
    const afterSearch = api.requests.length;
    await search.onDeployed(instance); // same text: nothing to embed
    expect(api.requests.length).toBe(afterSearch);
    await search.onUndeployed(instance.systemId, 'production');
    expect((await search.search(q({ q: 'telescope' }))).hits.map((h) => h.systemId)).not.toContain(
      instance.systemId,
    );
    expect(
      (await store.listEmbeddings(search.model as string)).map((r) => r.systemId),
    ).not.toContain(instance.systemId);
  });

  it('a provider outage never fails a deploy: the instance is found by words, pending, then embedded', async () => {
    const { search } = await setup({ retryDelayMs: 200 });
    await search.idle();
    for (let i = 0; i < 3; i++) api.fail({ status: 503 });
    const instance: SearchableInstance = {
      systemId: 'urn:dmb:dp:research:seismic:0',
      environment: 'production',
      deployedAt: new Date().toISOString(),
      descriptor: { name: 'Seismic Events', description: 'Earthquake magnitudes' },
    };
    await expect(search.onDeployed(instance)).resolves.toBeUndefined();
    const status = await search.status('production');
    expect(status.pending).toBe(1);
    expect(status.lastError?.message).toContain('HTTP 503');
    expect((await search.search(q({ q: 'seismic' }))).hits[0]?.systemId).toBe(instance.systemId);
    await expect.poll(async () => (await search.status()).pending, { timeout: 5000 }).toBe(0);
  });

  it('falls back to lexical search, and says so, when disabled or before any embedding exists', async () => {
    const disabled = await setup({ provider: null });
    const result = await disabled.search.search(q({ q: 'invoices' }));
    expect(result).toMatchObject({
      mode: 'lexical',
      fallback: 'embeddings search is disabled',
      model: null,
    });
    expect(result.hits[0]?.systemId).toMatch(/invoices/);
    await expect(disabled.search.createEmbeddings('production')).rejects.toMatchObject({
      code: 'search_unavailable',
    });

    api.fail({ status: 400 });
    const failing = await setup({
      instances: generateMarketplace({ environment: 'production', count: 4 }),
      retryDelayMs: 60_000,
    });
    await failing.search.idle();
    // No vector in the environment: the query is not even embedded.
    const r = await failing.search.search(q({ q: 'invoices' }));
    expect(r).toMatchObject({
      mode: 'lexical',
      fallback: 'no embeddings yet in production (4 pending)',
    });
    expect(r.hits.length).toBeGreaterThan(0);

    // Vectors exist but the query's embedding fails.
    const embedded = await setup({
      instances: generateMarketplace({ environment: 'production', count: 4 }),
    });
    await embedded.search.idle();
    api.fail({ status: 400 });
    const failed = await embedded.search.search(q({ q: 'invoices' }));
    expect(failed.mode).toBe('lexical');
    expect(failed.fallback).toMatch(/the embedding provider failed/);
    expect(failed.hits.length).toBeGreaterThan(0);
  });

  it('answers lexically, and says so, when too many new queries are being embedded at once', async () => {
    const { search } = await setup({ maxConcurrentQueryEmbeddings: 1 });
    await search.idle();
    api.fail({ status: 200, delayMs: 300, passThrough: true });
    const [slow, crowded] = await Promise.all([
      search.search(q({ q: 'invoice amounts' })),
      search.search(q({ q: 'general ledger accounts' })),
    ]);
    expect(slow.fallback).toBeUndefined();
    expect(slow.mode).toBe('hybrid');
    expect(crowded).toMatchObject({
      mode: 'lexical',
      fallback: 'too many searches are being embedded at once',
    });
    expect(crowded.hits.length).toBeGreaterThan(0);
    expect((await search.status()).lastError).toBeNull();
  });

  it('refresh() indexes what another process deployed and forgets what it undeployed', async () => {
    const { search, source } = await setup();
    await search.idle();
    const added: SearchableInstance = {
      systemId: 'urn:dmb:dp:research:glacier:0',
      environment: 'production',
      deployedAt: new Date().toISOString(),
      descriptor: { name: 'Glacier Mass Balance', description: 'Ice thickness surveys' },
    };
    const removed = source.instances.shift() as SearchableInstance;
    source.instances.push(added);
    expect(await search.refresh()).toEqual({ indexed: 1, forgotten: 1 });
    await search.idle();
    expect((await search.search(q({ q: 'glacier ice' }))).hits[0]?.systemId).toBe(added.systemId);
    expect(
      (await search.search(q({ q: removed.systemId }))).hits.map((h) => h.systemId),
    ).not.toContain(removed.systemId);
    expect(await search.status()).toMatchObject({ instances: 40, embedded: 40, pending: 0 });
    expect(await search.refresh()).toEqual({ indexed: 0, forgotten: 0 });
  });

  it('never mixes models: a new model starts stale, createEmbeddings rebuilds, one job per environment', async () => {
    const file = join(dir, 'model-change.db');
    const first = await setup({ file });
    await first.search.idle();
    await first.search.close();
    await first.store.close();

    const second = await setup({ file, provider: provider('large') });
    const status = await second.search.status();
    expect(status.model).toBe('azure_openai:text-embedding-3-large:256');
    expect(status.otherModels).toEqual({ 'azure_openai:text-embedding-3-small:256': 40 });
    const job = await second.search.createEmbeddings('production');
    expect(job).toMatchObject({ status: 'running', total: 40, environment: 'production' });
    expect((await second.search.createEmbeddings('production')).id).toBe(job.id);
    await second.search.idle();
    expect(await second.search.getJob(job.id)).toMatchObject({
      status: 'completed',
      done: 40,
      failed: 0,
    });
    expect(await second.search.status()).toMatchObject({ embedded: 40, pending: 0 });
    expect((await second.search.search(q({ q: 'payroll' }))).mode).toBe('hybrid');
  });

  it('resumes a job that a stop interrupted, embedding only what it had not done', async () => {
    const file = join(dir, 'resume.db');
    const first = await setup({ file });
    await first.search.idle();
    await first.search.close();
    const startedAt = new Date(Date.now() + 1000).toISOString();
    await first.store.createJob({
      id: 'job-1',
      environment: 'production',
      model: 'azure_openai:text-embedding-3-small:256',
      status: 'running',
      total: 40,
      done: 0,
      failed: 0,
      errors: [],
      startedAt,
      updatedAt: startedAt,
      finishedAt: null,
      resumed: 0,
    });
    await first.store.close();
    const before = api.requests.length;
    const second = await setup({ file });
    await second.search.idle();
    expect(await second.search.getJob('job-1')).toMatchObject({
      status: 'completed',
      done: 40,
      resumed: 1,
    });
    expect(api.requests.slice(before).reduce((s, r) => s + r.inputs, 0)).toBe(40);
  });
});
