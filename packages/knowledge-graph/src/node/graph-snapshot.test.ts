import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from '../errors';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { decodeSnapshot, encodeSnapshot, readSnapshotHeader } from './graph-snapshot';

function sampleStore() {
  const builder = new TripleStoreBuilder();
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

  it('gives the header (generation and counts) from the first 64 bytes', () => {
    const store = sampleStore();
    const generation = randomUUID();
    const [header] = encodeSnapshot(store, generation);
    expect(readSnapshotHeader(header as Uint8Array, 'x')).toEqual({
      formatVersion: 1,
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
