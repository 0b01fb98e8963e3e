import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from '../errors';
import { SearchIndex } from '../search/search-index';
import type { SearchIndexData } from '../search/search-index-data';
import type { TripleStore } from '../store/triple-store';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { decodeSnapshot, encodeSnapshot } from './graph-snapshot';

const LABEL = 'https://ex.org/label';
const ALT = 'https://ex.org/alt';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const predicates = [
  { iri: LABEL, weight: 2 },
  { iri: ALT, weight: 1 },
];

function sampleStore(): TripleStore {
  const builder = new TripleStoreBuilder();
  builder.addTerms('_:b1', LABEL, '"blank water"@en');
  for (let i = 0; i < 400; i++) {
    const c = `https://ex.org/c${i}`;
    builder.addTerms(c, LABEL, `"water quality ${i} ${i % 7 === 0 ? 'Vertrag' : 'metrik'}"@en`);
    builder.addTerms(c, ALT, `"qualität ${i % 13} begriff"@de`);
    builder.addTerms(c, TYPE, `https://ex.org/T${i % 3}`);
  }
  return builder.build();
}

async function* rechunk(chunks: Iterable<Uint8Array>, size: number) {
  const all = Buffer.concat([...chunks].map((c) => Buffer.from(c)));
  for (let at = 0; at < all.length; at += size) yield all.subarray(at, at + size);
}

function built(store: TripleStore): SearchIndex {
  const index = new SearchIndex(predicates);
  index.swapSource('s', index.buildSource(store));
  return index;
}

const queries: Array<[string, Parameters<SearchIndex['search']>[1]]> = [
  ['water', { offset: 0, limit: 10 }],
  ['water quality 42', { offset: 0, limit: 5 }],
  ['vertrag', { offset: 3, limit: 7 }],
  ['qual', { offset: 0, limit: 20 }],
  ['metrik begriff', { offset: 0, limit: 10, lang: ['de'] }],
  ['water', { offset: 0, limit: 10, types: ['https://ex.org/T1'] }],
  ['wadder', { offset: 0, limit: 10 }],
];

/** A format 2 snapshot (format 3 without the search index section) of `store`. */
function formatTwo(store: TripleStore, generation: string): Buffer[] {
  const chunks = [...encodeSnapshot(store, generation)].map((c) => Buffer.from(c));
  const header = chunks[0]!;
  header.writeUInt32LE(2, 8);
  header.writeUInt32LE(crc32(header.subarray(0, 60)), 60);
  // The last section (before the trailer) is the empty search index section.
  const sections = chunks.slice(1, -2);
  let checksum = 0;
  for (const section of sections) checksum = crc32(section, checksum);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(checksum, 0);
  trailer.write('END1', 4, 'latin1');
  return [header, ...sections, trailer];
}

describe('graph snapshots with a search index', () => {
  it('carries the index: read back, it answers every search exactly as the built one', async () => {
    const store = sampleStore();
    const original = built(store);
    const data = original.sourceIndex('s')!.toData();
    for (const size of [5, 4096]) {
      const decoded = await decodeSnapshot(
        rechunk(encodeSnapshot(store, randomUUID(), data), size),
        'x',
      );
      expect(decoded.searchIndex).toBeDefined();
      const index = new SearchIndex(predicates);
      const restored = index.restoreSource(decoded.store, decoded.searchIndex!);
      expect(restored).toBeDefined();
      index.swapSource('s', restored);
      expect(index.stats()).toEqual(original.stats());
      for (const [term, page] of queries)
        expect(index.search(term, page)).toEqual(original.search(term, page));
      // Written again, it is the same index.
      const again = restored!.toData();
      expect(again.sortedWords).toEqual(data.sortedWords);
      expect(again.postings.docs).toEqual(data.postings.docs);
      expect(again.postings.impacts).toEqual(data.postings.impacts);
    }
  });

  it('restores an index into a search index whose document ids are already taken (re-sorting its postings)', async () => {
    const store = sampleStore();
    const data = built(store).sourceIndex('s')!.toData();
    const decoded = await decodeSnapshot(
      rechunk(encodeSnapshot(store, randomUUID(), data), 64),
      'x',
    );
    // Another source takes ids first, then frees some: ids come back in another order.
    const index = new SearchIndex(predicates);
    const other = new TripleStoreBuilder();
    for (let i = 399; i >= 0; i -= 2) other.addTerms(`https://ex.org/c${i}`, LABEL, '"other"');
    index.swapSource('o', index.buildSource(other.build()));
    index.removeSource('o');
    index.swapSource('s', index.restoreSource(decoded.store, decoded.searchIndex!));
    const expected = built(store);
    for (const [term, page] of queries) {
      const got = index.search(term, page);
      const want = expected.search(term, page);
      expect(got.totalResults).toBe(want.totalResults);
      // Ties rank by document id, which differs here: compare as sets on a full page.
      if (page.offset === 0 && want.totalResults <= page.limit)
        expect([...got.results].sort()).toEqual([...want.results].sort());
    }
    const { postings } = index.sourceIndex('s')!;
    for (let w = 0; w + 1 < postings.starts.length; w++)
      for (let k = postings.starts[w]! + 1; k < postings.starts[w + 1]!; k++)
        expect(postings.docs[k]!).toBeGreaterThanOrEqual(postings.docs[k - 1]!);
  });

  it('is not restored for other predicates or weights (the caller builds the index)', async () => {
    const store = sampleStore();
    const data = built(store).sourceIndex('s')!.toData();
    const other = new SearchIndex([{ iri: LABEL, weight: 3 }]);
    expect(other.restoreSource(store, data)).toBeUndefined();
  });

  it('loads snapshots without an index: format 2, and format 3 saved without one', async () => {
    const store = sampleStore();
    const generation = randomUUID();
    const two = await decodeSnapshot(rechunk(formatTwo(store, generation), 777), 'two');
    expect(two.generation).toBe(generation);
    expect(two.searchIndex).toBeUndefined();
    expect([...two.store.terms.entries()]).toEqual([...store.terms.entries()]);
    const three = await decodeSnapshot(rechunk(encodeSnapshot(store, generation), 64), 'three');
    expect(three.searchIndex).toBeUndefined();
    expect(three.store.size).toBe(store.size);
  });

  it('refuses a damaged, truncated or inconsistent index section, saying so', async () => {
    const store = sampleStore();
    const data = built(store).sourceIndex('s')!.toData();
    const all = Buffer.concat([...encodeSnapshot(store, randomUUID(), data)].map(Buffer.from));
    const refusal = async (chunks: Iterable<Uint8Array>, where: string) => {
      const error = await decodeSnapshot(rechunk(chunks, 4096), where).catch((e: unknown) => e);
      expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('snapshot_unreadable');
      return (error as Error).message;
    };
    // A byte of the postings flipped: the trailer's checksum tells.
    const flipped = Buffer.from(all);
    flipped[all.length - 100]! ^= 0xff;
    expect(await refusal([flipped], 'f')).toBe('f is damaged (checksum mismatch)');
    expect(await refusal([all.subarray(0, all.length - 200)], 't')).toBe('t is truncated');
    // Consistent checksums, inconsistent content (as a faulty writer could make it).
    const cases: Array<[string, (d: SearchIndexData) => SearchIndexData]> = [
      ['postings', (d) => withPostings(d, { docs: d.postings.docs.map((x) => x + 100_000) })],
      ['postings', (d) => withPostings(d, { literals: d.postings.literals.map(() => 999_999) })],
      // A word's largest impact below one of its entries' (search would skip that entry).
      ['postings', (d) => withPostings(d, { maxImpacts: d.postings.maxImpacts.map((x) => x / 2) })],
      ['word list', (d) => ({ ...d, sortedWords: [...d.sortedWords].reverse() })],
      ['document subjects', (d) => ({ ...d, docSubjects: d.docSubjects.map(() => 0) })],
    ];
    for (const [what, damage] of cases)
      expect(await refusal(encodeSnapshot(store, randomUUID(), damage(data)), 'd')).toBe(
        `d has a damaged search index (${what})`,
      );
    // A header that is not JSON.
    const badHeader = Buffer.from(all);
    const at = badHeader.indexOf('{"predicates"');
    badHeader[at] = 0x21;
    const fixed = withChecksum(badHeader);
    expect(await refusal([fixed], 'h')).toBe(
      'h has a damaged search index (its header is not JSON)',
    );
  });
});

function withPostings(d: SearchIndexData, changes: Partial<SearchIndexData['postings']>) {
  return { ...d, postings: { ...d.postings, ...changes } };
}

/** `snapshot` with its trailer checksum recomputed over its sections. */
function withChecksum(snapshot: Buffer): Buffer {
  const copy = Buffer.from(snapshot);
  copy.writeUInt32LE(crc32(copy.subarray(64, copy.length - 8)), copy.length - 8);
  return copy;
}
