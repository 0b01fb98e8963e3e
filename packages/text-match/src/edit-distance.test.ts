import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from './edit-distance';

// Plain optimal-string-alignment distance, the reference.
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedEditDistance', () => {
  it('counts substitutions, insertions, deletions and transpositions', () => {
    expect(boundedEditDistance('river', 'river', 2)).toBe(0);
    expect(boundedEditDistance('river', 'rivet', 2)).toBe(1);
    expect(boundedEditDistance('qaulity', 'quality', 2)).toBe(1);
    expect(boundedEditDistance('lake', 'lakes', 2)).toBe(1);
    expect(boundedEditDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });

  it('agrees with the unbounded distance up to the bound', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.integer({ min: 0, max: 3 }),
        (a, b, max) => {
          const exact = osa(a, b);
          expect(boundedEditDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
        },
      ),
    );
  });
});
