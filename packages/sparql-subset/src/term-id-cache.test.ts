import { describe, expect, it } from 'vitest';
import type { QueryDataset, QueryDatasetCursor } from './query-dataset';
import { TermIdCache } from './term-id-cache';

/** A dictionary-only dataset: the cache reads nothing but `termId` and `term`. */
function dictionary(terms: string[]): QueryDataset & { lookups: number } {
  const ids = new Map(terms.map((term, i) => [term, i + 1]));
  return {
    version: 1,
    size: 0,
    lookups: 0,
    termId(term: string) {
      this.lookups++;
      return ids.get(term) ?? 0;
    },
    term: (id: number) => terms[id - 1] as string,
    count: () => 0,
    match: (): QueryDatasetCursor => {
      throw new Error('not read by the cache');
    },
  };
}

describe('TermIdCache', () => {
  it('answers the dataset’s ids, also for terms that share a slot', () => {
    // Same length and the same last 16 characters: every one of them hashes to the same slot.
    const terms = Array.from(
      { length: 50 },
      (_, i) => `urn:${String(i).padStart(2, '0')}:same-ending-xyz`,
    );
    const dataset = dictionary(terms);
    const cache = new TermIdCache(dataset);
    for (let round = 0; round < 3; round++)
      expect(terms.map((term) => cache.id(term))).toEqual(terms.map((_, i) => i + 1));
    expect(cache.id('urn:absent')).toBe(0);
    expect(cache.id('urn:absent')).toBe(0);
  });

  it('answers a term it just decoded without asking the dictionary', () => {
    const terms = Array.from({ length: 1000 }, (_, i) => `http://example.org/c${i}`);
    const dataset = dictionary(terms);
    const cache = new TermIdCache(dataset);
    for (let id = 1; id <= terms.length; id++) expect(cache.id(cache.term(id))).toBe(id);
    // A decoded term's lookup is answered from its slot (a colliding neighbour may have evicted a few).
    expect(dataset.lookups).toBeLessThan(terms.length / 4);
  });
});
