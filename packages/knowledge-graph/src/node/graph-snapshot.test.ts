import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { query } from '@dcg/sparql-subset';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from '../errors';
import { SearchIndex } from '../search/search-index';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { decodeSnapshot, encodeSnapshot, readSnapshotHeader } from './graph-snapshot';

function sampleStore() {
  const builder = new TripleStoreBuilder();
  // UTF-8 cannot hold a lone surrogate: such a term travels apart from the others.
  builder.addTerms('https://ex.org/odd', 'https://ex.org/label', '"half \ud800 pair"@en');
  for (let i = 0; i < 500; i++) {
    builder.addTerms(`https://ex.org/c${i}`, 'https://ex.org/label', `"label ${i} – ünïcode"@en`);
    builder.addTerms(`https://ex.org/c${i}`, 'https://ex.org/broader', `https://ex.org/c${i >> 1}`);
  }
  return builder.build();
}

/** The bytes of `chunks` cut again into pieces of `size` bytes. */
async function* rechunk(chunks: Iterable<Uint8Array>, size: number) {
  const all = Buffer.concat([...chunks].map((c) => Buffer.from(c)));
  for (let at = 0; at < all.length; at += size) yield all.subarray(at, at + size);
}

describe('graph snapshots', () => {
  it('decodes what was encoded, whatever the chunk sizes on the way', async () => {
    const store = sampleStore();
    const generation = randomUUID();
    for (const size of [1, 7, 4096, 1 << 22]) {
      const decoded = await decodeSnapshot(rechunk(encodeSnapshot(store, generation), size), 'x');
      expect(decoded.generation).toBe(generation);
      expect(decoded.store.size).toBe(store.size);
      for (const order of ['spo', 'pos', 'osp'] as const) {
        expect(decoded.store[order].offsets).toEqual(store[order].offsets);
        expect(decoded.store[order].second).toEqual(store[order].second);
        expect(decoded.store[order].third).toEqual(store[order].third);
      }
      expect([...decoded.store.terms.entries()]).toEqual([...store.terms.entries()]);
    }
  });

  it('looks terms up in the loaded dictionary, and answers SPARQL as the original store does', async () => {
    const store = sampleStore();
    const { store: loaded } = await decodeSnapshot(
      rechunk(encodeSnapshot(store, randomUUID()), 999),
      'x',
    );
    for (const [id, term] of store.terms.entries()) {
      expect(loaded.termId(term)).toBe(id);
      expect(loaded.term(id)).toBe(term);
    }
    expect(loaded.termId('https://ex.org/absent')).toBe(0);
    expect(loaded.termId('"half \udc00 pair"@en')).toBe(0);
    const sparql = `SELECT ?c ?l { ?c <https://ex.org/broader> <https://ex.org/c3> . ?c <https://ex.org/label> ?l } ORDER BY ?c`;
    const expected = await query(sparql, store);
    expect(await query(sparql, loaded)).toEqual(expected);
    expect('results' in expected && expected.results.bindings.length).toBe(2);
    // Search over the loaded store reads the same literals from its packed dictionary.
    const searchOf = (of: typeof store) => {
      const index = new SearchIndex([{ iri: 'https://ex.org/label', weight: 1 }]);
      index.swapSource('s', index.buildSource(of));
      return index;
    };
    const [before, after] = [searchOf(store), searchOf(loaded)];
    for (const term of ['label 42', 'unicode', 'label 4', 'half pair', 'lable 7'])
      expect(after.search(term, { offset: 0, limit: 20 })).toEqual(
        before.search(term, { offset: 0, limit: 20 }),
      );
    expect(after.search('label 42 unicode', { offset: 0, limit: 1 }).results).toEqual([
      'https://ex.org/c42',
    ]);
    // A loaded graph is written again as it was.
    const again = Buffer.concat([...encodeSnapshot(loaded, randomUUID())].slice(1));
    const first = Buffer.concat([...encodeSnapshot(store, randomUUID())].slice(1));
    expect(again.equals(first)).toBe(true);
  });

  it('loads a snapshot of format 1 (term lengths, no hash table)', async () => {
    const store = sampleStore();
    const generation = randomUUID();
    const decoded = await decodeSnapshot(rechunk(formatOne(store, generation), 333), 'old');
    expect(decoded.generation).toBe(generation);
    expect([...decoded.store.terms.entries()]).toEqual([...store.terms.entries()]);
    expect(decoded.store.termId('https://ex.org/c42')).toBe(store.termId('https://ex.org/c42'));
    expect(decoded.store.count(0, 0, 0)).toBe(store.size);
  });

  it('refuses a truncated snapshot, damaged offsets and an unknown format, saying which', async () => {
    const store = sampleStore();
    const all = Buffer.concat([...encodeSnapshot(store, randomUUID())]);
    for (const cut of [10, 64, 100, all.length - 9, all.length - 1]) {
      const error = await decodeSnapshot(rechunk([all.subarray(0, cut)], 50), 't').catch(
        (e: unknown) => e,
      );
      expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('snapshot_unreadable');
      expect((error as Error).message).toMatch(/^t (is truncated|is too short)/);
    }
    const damaged = Buffer.from(all);
    damaged.writeUInt32LE(0xffffff, 64 + 8); // the end offset of term 2
    await expect(decodeSnapshot(rechunk([damaged], 4096), 'd')).rejects.toThrow(
      'd is damaged (checksum mismatch)',
    );
    const future = Buffer.from(all);
    future.writeUInt32LE(4, 8);
    future.writeUInt32LE(crc32(future.subarray(0, 60)), 60);
    await expect(decodeSnapshot(rechunk([future], 4096), 'f')).rejects.toThrow(
      'f is a graph snapshot of format 4; this version reads formats 1 to 3 only',
    );
  });

  it('gives the header (generation and counts) from the first 64 bytes', () => {
    const store = sampleStore();
    const generation = randomUUID();
    const [header] = encodeSnapshot(store, generation);
    expect(readSnapshotHeader(header as Uint8Array, 'x')).toEqual({
      formatVersion: 3,
      terms: store.terms.size,
      triples: store.size,
      generation,
    });
  });

  it('refuses bytes after the end and a header whose own checksum fails', async () => {
    const store = sampleStore();
    const chunks = [...encodeSnapshot(store, randomUUID())].map((c) => Buffer.from(c));
    const extra = decodeSnapshot(rechunk([...chunks, Buffer.from('x')], 1000), 'extra.snapshot');
    await expect(extra).rejects.toThrow('extra.snapshot has bytes after its end');
    (chunks[0] as Buffer)[20] = 7;
    const error = await decodeSnapshot(rechunk(chunks, 1000), 'h').catch((e: unknown) => e);
    expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('snapshot_unreadable');
    expect((error as Error).message).toBe('h has a damaged header (checksum mismatch)');
  });

  it('snapshots an empty graph', async () => {
    const store = new TripleStoreBuilder().build();
    const decoded = await decodeSnapshot(rechunk(encodeSnapshot(store, randomUUID()), 10), 'e');
    expect(decoded.store.size).toBe(0);
    expect(decoded.store.count(0, 0, 0)).toBe(0);
  });
});

/** The snapshot of `store` in format 1 (each term's byte length, no hash table). */
function formatOne(store: ReturnType<typeof sampleStore>, generation: string): Buffer[] {
  const terms = [...store.terms.entries()].map(([, term]) => term);
  const wellFormed = (t: string) => (t as unknown as { isWellFormed(): boolean }).isWellFormed();
  const lengths = Uint32Array.from(terms, (t) => (wellFormed(t) ? Buffer.byteLength(t) : 0));
  const bytes = Buffer.from(terms.filter(wellFormed).join(''), 'utf8');
  const illFormed = Buffer.from(
    JSON.stringify(terms.flatMap((t, i) => (wellFormed(t) ? [] : [[i + 1, t]]))),
  );
  const sections: Buffer[] = [Buffer.from(lengths.buffer), bytes, illFormed];
  for (const order of ['spo', 'pos', 'osp'] as const)
    for (const array of [store[order].offsets, store[order].second, store[order].third])
      sections.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  const header = Buffer.alloc(64);
  header.write('DCGKGSNP', 0, 'latin1');
  header.writeUInt32LE(1, 8);
  header.writeUInt32LE(64, 12);
  header.writeUInt32LE(terms.length, 16);
  header.writeUInt32LE(store.size, 20);
  header.writeDoubleLE(bytes.length, 24);
  header.writeUInt32LE(store.spo.offsets.length, 32);
  header.writeUInt32LE(illFormed.length, 36);
  Buffer.from(generation.replaceAll('-', ''), 'hex').copy(header, 40);
  header.writeUInt32LE(crc32(header.subarray(0, 60)), 60);
  let checksum = 0;
  for (const section of sections) checksum = crc32(section, checksum);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(checksum, 0);
  trailer.write('END1', 4, 'latin1');
  return [header, ...sections, trailer];
}
