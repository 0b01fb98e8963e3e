import { describe, expect, it } from 'vitest';
import { TopK } from './top-k';

describe('TopK', () => {
  it('keeps the best scores of a stream, best first, ties by lower id', () => {
    const top = new TopK(3);
    const scores = [0.1, 0.9, 0.5, 0.9, 0.2, 0.7, 0.5];
    for (const [id, s] of scores.entries()) top.offer(id, s);
    expect(top.floor).toBeCloseTo(0.7);
    const { ids, scores: kept } = top.drain();
    expect([...ids]).toEqual([1, 3, 5]);
    expect([...kept]).toEqual([0.9, 0.9, 0.7]);
    expect(top.size).toBe(0);
  });

  it('matches a full sort on random streams, and is reusable with another capacity', () => {
    let seed = 3;
    const random = () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 4294967296;
    };
    const top = new TopK(10);
    for (const capacity of [1, 10, 50, 500]) {
      top.reset(capacity);
      const scores = Array.from({ length: 300 }, () => Math.round(random() * 100) / 100);
      for (const [id, s] of scores.entries()) top.offer(id, s);
      const expected = scores
        .map((s, id) => ({ s, id }))
        .sort((a, b) => b.s - a.s || a.id - b.id)
        .slice(0, capacity)
        .map((e) => e.id);
      expect([...top.drain().ids]).toEqual(expected);
    }
  });
});
