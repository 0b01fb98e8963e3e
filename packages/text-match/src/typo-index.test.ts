import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from './edit-distance';
import { TypoIndex } from './typo-index';

describe('TypoIndex', () => {
  it('finds words one edit away, transpositions included', () => {
    const typos = new TypoIndex(['orders', 'order', 'invoice', 'payroll', 'shipment']);
    expect(typos.near('ordres', 1)).toEqual(['orders']);
    expect(typos.near('invioce', 1)).toEqual(['invoice']);
    expect(typos.near('payrol', 1)).toEqual(['payroll']);
    expect(typos.near('shipmnet', 1)).toEqual(['shipment']);
    expect(typos.near('order', 1)).toEqual(['orders']);
    expect(typos.near('xyz', 1)).toEqual([]);
  });

  it('finds words two edits away only when asked, and forgets deleted words', () => {
    const typos = new TypoIndex(['vulnerability', 'warehouse']);
    expect(typos.near('vulnerabilyti', 1)).toEqual([]);
    expect(typos.near('vulnerabilyti', 2)).toEqual(['vulnerability']);
    expect(typos.delete('warehouse')).toBe(true);
    expect(typos.near('warehose', 1)).toEqual([]);
    expect(typos.has('warehouse')).toBe(false);
    expect(typos.size).toBe(1);
  });

  it('agrees with the edit distance over random vocabularies', () => {
    const word = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', 'd'),
      minLength: 1,
      maxLength: 7,
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { maxLength: 40 }),
        word,
        fc.constantFrom(1, 2),
        (words, q, d) => {
          const typos = new TypoIndex(words);
          const expected = words.filter((w) => boundedEditDistance(q, w, d) === d).sort();
          expect(typos.near(q, d as 1 | 2, 1000).sort()).toEqual(expected);
        },
      ),
    );
  });
});
