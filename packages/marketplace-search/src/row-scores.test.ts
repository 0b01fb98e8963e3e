import { describe, expect, it } from 'vitest';
import { RowScores } from './row-scores';

const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648 - 0.5;
};

function jsDot(q: Float32Array, rows: Float32Array, row: number, dims: number): number {
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += (q[i] as number) * (rows[row * dims + i] as number);
  return sum;
}

describe('RowScores (WebAssembly SIMD)', () => {
  it('scores every row as the dot product with the query, and keeps the rows when it grows', () => {
    const random = seeded(3);
    const kernel = RowScores.create(96, 64);
    if (!kernel)
      throw new Error('WebAssembly SIMD is available in every Node.js this package supports');
    kernel.query.set(Array.from({ length: 96 }, random));
    const filled = 64 * 96;
    kernel.rows.set(Array.from({ length: filled }, random));
    const before = Array.from(kernel.score(64));
    kernel.grow(4096);
    const rows = kernel.rows;
    expect(rows.length).toBe(4096 * 96);
    rows.set(Array.from({ length: 4096 * 96 - filled }, random), filled);
    const scores = kernel.score(4096);
    expect(Array.from(scores.subarray(0, 64))).toEqual(before);
    const query = kernel.query;
    for (const row of [0, 1, 63, 64, 2000, 4095]) {
      expect(scores[row]).toBeCloseTo(jsDot(query, rows, row, 96), 5);
    }
  });

  it('scores the rows a shortlist names, in its order', () => {
    const random = seeded(5);
    const kernel = RowScores.create(512, 128);
    if (!kernel) throw new Error('no WebAssembly SIMD');
    kernel.rows.set(Array.from({ length: 128 * 512 }, random));
    kernel.query.set(Array.from({ length: 512 }, random));
    const shortlist = [127, 0, 64, 3];
    kernel.ids.set(shortlist);
    const scores = Array.from(kernel.scoreRows(shortlist.length));
    const all = kernel.score(128);
    expect(scores).toEqual(shortlist.map((row) => all[row]));
    expect(scores[0]).toBeCloseTo(jsDot(kernel.query, kernel.rows, 127, 512), 5);
  });

  it('is not made for rows whose length is not a multiple of 8 (the caller keeps its loop)', () => {
    expect(RowScores.create(100, 64)).toBeNull();
  });
});
