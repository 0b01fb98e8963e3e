import { describe, expect, it } from 'vitest';
import { normalize, VectorIndex } from './vector-index';

function seeded(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296 - 0.5;
  };
}

describe('VectorIndex', () => {
  it('upserts, replaces, removes, and searches one environment by cosine', () => {
    const index = new VectorIndex(3);
    index.upsert('a', 'prod', [1, 0, 0]);
    index.upsert('b', 'prod', [0, 1, 0]);
    index.upsert('c', 'qa', [1, 0, 0]);
    index.upsert('d', 'prod', [1, 1, 0]);
    expect(index.search([2, 0.1, 0], { environment: 'prod', limit: 2 }).map((h) => h.key)).toEqual([
      'a',
      'd',
    ]);
    index.upsert('a', 'prod', [0, 0, 1]);
    expect(index.search([1, 0, 0], { environment: 'prod', limit: 1 })[0]?.key).toBe('d');
    expect(index.remove('d')).toBe(true);
    expect(index.remove('d')).toBe(false);
    expect(
      index
        .search([1, 0, 0], { environment: 'prod', limit: 3 })
        .map((h) => h.key)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(index.search([1, 0, 0], { environment: 'qa', limit: 3 })).toEqual([
      { key: 'c', similarity: expect.closeTo(1, 5) },
    ]);
    expect(index.size).toBe(3);
  });

  it('refuses vectors of another model (dimension)', () => {
    const index = new VectorIndex(3);
    expect(() => index.upsert('a', 'p', [1, 2])).toThrow(/2 dimensions/);
    expect(() => index.search([1, 2, 3, 4], { environment: 'p', limit: 1 })).toThrow(
      /4 dimensions/,
    );
  });

  it('grows past its first capacity and keeps rows right after removals', () => {
    const index = new VectorIndex(4);
    for (let i = 0; i < 300; i++) index.upsert(`k${i}`, 'p', [i, 1, 0, 0]);
    for (let i = 0; i < 300; i += 2) index.remove(`k${i}`);
    const top = index.search([1, 0, 0, 0], { environment: 'p', limit: 1 });
    expect(top[0]?.key).toBe('k299');
    expect(index.size).toBe(150);
  });

  it('ranks alike with WebAssembly SIMD and with the JavaScript loops', () => {
    const random = seeded(11);
    const simd = new VectorIndex(512);
    const js = new VectorIndex(512, { simd: false });
    for (let i = 0; i < 1000; i++) {
      const v = Array.from({ length: 512 }, random);
      simd.upsert(`k${i}`, i % 3 === 0 ? 'q' : 'p', v);
      js.upsert(`k${i}`, i % 3 === 0 ? 'q' : 'p', v);
    }
    for (let i = 0; i < 1000; i += 7) {
      simd.remove(`k${i}`);
      js.remove(`k${i}`);
    }
    for (let i = 0; i < 20; i++) {
      const q = Array.from({ length: 512 }, random);
      const a = simd.search(q, { environment: 'p', limit: 10 });
      const b = js.search(q, { environment: 'p', limit: 10 });
      expect(a.map((h) => h.key)).toEqual(b.map((h) => h.key));
      a.forEach((h, j) => {
        expect(h.similarity).toBeCloseTo(b[j]?.similarity as number, 5);
      });
    }
  });

  it('with a random projection finds the same top hits as an exact scan (512 dimensions)', () => {
    const random = seeded(7);
    const centres = Array.from({ length: 60 }, () =>
      normalize(Array.from({ length: 512 }, random)),
    );
    const exact = new VectorIndex(512, { exact: true });
    const projected = new VectorIndex(512);
    for (let i = 0; i < 5000; i++) {
      const centre = centres[i % centres.length] as Float32Array;
      const v = Array.from(centre, (x) => x + random() * 0.12);
      exact.upsert(`k${i}`, 'p', v);
      projected.upsert(`k${i}`, 'p', v);
    }
    let overlap = 0;
    const queries = 40;
    for (let i = 0; i < queries; i++) {
      const centre = centres[(i * 7) % centres.length] as Float32Array;
      const q = Array.from(centre, (x) => x + random() * 0.2);
      const a = new Set(exact.search(q, { environment: 'p', limit: 10 }).map((h) => h.key));
      const b = projected.search(q, { environment: 'p', limit: 10 });
      overlap += b.filter((h) => a.has(h.key)).length / 10;
      expect(b.map((h) => h.similarity)).toEqual(
        [...b.map((h) => h.similarity)].sort((x, y) => y - x),
      );
    }
    expect(overlap / queries).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps each projected row with its vector when removals move the last row', () => {
    const random = seeded(11);
    const projected = new VectorIndex(256);
    const vectors = Array.from({ length: 400 }, () => Array.from({ length: 256 }, random));
    for (const [i, v] of vectors.entries()) projected.upsert(`k${i}`, 'p', v);
    for (let i = 0; i < 400; i += 3) projected.remove(`k${i}`);
    for (let i = 1; i < 400; i += 3) {
      const [best] = projected.search(vectors[i] as number[], { environment: 'p', limit: 1 });
      expect(best?.key).toBe(`k${i}`);
      expect(best?.similarity).toBeCloseTo(1, 5);
    }
  });

  it('leaves out hits below minSimilarity', () => {
    const index = new VectorIndex(2);
    index.upsert('same', 'p', [1, 0]);
    index.upsert('near', 'p', [1, 1]);
    index.upsert('far', 'p', [0, 1]);
    const hits = index.search([1, 0], { environment: 'p', limit: 3, minSimilarity: 0.5 });
    expect(hits.map((h) => h.key)).toEqual(['same', 'near']);
    expect(index.search([-1, 0], { environment: 'p', limit: 3, minSimilarity: 0.5 })).toEqual([]);
    expect(index.search([1, 0], { environment: 'other', limit: 3 })).toEqual([]);
  });

  it('searches every environment when none is given', () => {
    const index = new VectorIndex(2);
    index.upsert('p-same', 'p', [1, 0]);
    index.upsert('q-near', 'q', [1, 0.2]);
    index.upsert('q-far', 'q', [0, 1]);
    expect(index.search([1, 0], { limit: 2 }).map((h) => h.key)).toEqual(['p-same', 'q-near']);
    expect(index.count()).toBe(3);
    expect(index.count('q')).toBe(2);
  });
});
