import { describe, expect, it } from 'vitest';
import { MarketplaceSearchError } from './errors';
import { HybridIndex } from './hybrid-index';
import { instanceDocument, type SearchableInstance } from './instance-text';

const instance = (systemId: string, name: string, description: string): SearchableInstance => ({
  systemId,
  environment: 'production',
  deployedAt: '2026-01-01T00:00:00.000Z',
  descriptor: { name, kind: 'dataproduct', description },
});
const invoices = instanceDocument(
  instance('urn:dmb:dp:finance:invoices:0', 'Invoices', 'Customer invoices and payments'),
);
const telescope = instanceDocument(
  instance('urn:dmb:dp:research:telescope:0', 'Telescope Observations', 'Star brightness'),
);
const unit = (...xs: number[]) => Float32Array.from(xs);

describe('HybridIndex', () => {
  it('tracks which instances need a vector of their current text', () => {
    const index = new HybridIndex(2);
    const key = index.add(invoices, 't');
    expect(index.needsEmbedding(key)).toBe(true);
    index.pending.add(key);

    index.putVector(key, unit(1, 0), 'an older text', '2026-01-01T00:00:00.000Z');
    // A vector of another text counts as embedded but leaves the instance pending.
    expect(index.counts('production')).toEqual({ instances: 1, embedded: 1 });
    expect(index.pending.countIn('production')).toBe(1);

    index.putVector(key, unit(1, 0), invoices.textHash, '2026-01-02T00:00:00.000Z');
    expect(index.needsEmbedding(key)).toBe(false);
    expect(index.pending.size).toBe(0);
    expect(index.embeddedAt(key)).toBe('2026-01-02T00:00:00.000Z');

    index.remove(key);
    expect(index.counts(undefined)).toEqual({ instances: 0, embedded: 0 });
    expect(index.document(key)).toBeUndefined();
  });

  it('never needs vectors when embeddings are disabled, and ranks by words saying why', async () => {
    const index = new HybridIndex(null);
    const key = index.add(invoices, 't');
    expect(index.needsEmbedding(key)).toBe(false);
    const ranking = await index.rank('invoices', { candidates: 10 });
    expect(ranking.fallback).toBe('embeddings search is disabled');
    expect(ranking.hits.map((h) => h.key)).toEqual([key]);
  });

  it('fuses words and meaning, and falls back to words when the query embedding fails', async () => {
    const index = new HybridIndex(2);
    const a = index.add(invoices, 't');
    const b = index.add(telescope, 't');
    expect(
      (await index.rank('stars', { candidates: 10, queryVector: async () => unit(0, 1) })).fallback,
    ).toBe('no embeddings yet (0 pending)');
    index.putVector(a, unit(1, 0), invoices.textHash, 't');
    index.putVector(b, unit(0, 1), telescope.textHash, 't');

    const byMeaning = await index.rank('stargazing', {
      candidates: 10,
      queryVector: async () => unit(0, 1),
      minSimilarity: 0.5,
    });
    expect(byMeaning.fallback).toBeUndefined();
    expect(byMeaning.hits.map((h) => h.key)).toEqual([b]);

    const failures: unknown[] = [];
    const failed = await index.rank('invoices', {
      candidates: 10,
      queryVector: async () => {
        throw new Error('provider down');
      },
      onProviderError: (error) => failures.push(error),
    });
    expect(failed.fallback).toBe('the embedding provider failed: provider down');
    expect(failed.hits.map((h) => h.key)).toEqual([a]);
    expect(failures).toHaveLength(1);

    // A refusal for load is not a provider failure.
    const refused = await index.rank('invoices', {
      candidates: 10,
      queryVector: async () => {
        throw new MarketplaceSearchError('search_unavailable', 'too busy');
      },
      onProviderError: (error) => failures.push(error),
    });
    expect(refused.fallback).toBe('too busy');
    expect(failures).toHaveLength(1);
  });

  it('keeps only the kinds asked for', async () => {
    const index = new HybridIndex(null);
    index.add(invoices, 't');
    expect(
      (await index.rank('invoices', { candidates: 10, kinds: ['DataProduct'] })).hits,
    ).toHaveLength(1);
    expect((await index.rank('invoices', { candidates: 10, kinds: ['api'] })).hits).toHaveLength(0);
  });
});
