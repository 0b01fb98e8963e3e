import { describe, expect, it } from 'vitest';
import { PackedTerms } from './packed-terms';

const terms = [
  '',
  'http://ex.org/a',
  '"Wasser"@de',
  '"ünïcode – ✓"@en',
  '_:b1',
  '"lone \ud800"',
  '',
];

describe('PackedTerms', () => {
  it('gives back every term and finds every id, ill-formed and empty terms included', () => {
    const packed = PackedTerms.fromTerms(terms);
    expect(packed.size).toBe(6);
    for (let id = 1; id < terms.length; id++) {
      expect(packed.term(id)).toBe(terms[id]);
      expect(packed.id(terms[id] as string)).toBe(id);
    }
    expect(packed.id('http://ex.org/z')).toBe(0);
    expect(packed.id('"lone \udc00"')).toBe(0);
    expect(packed.isLiteral(2)).toBe(true);
    expect(packed.isLiteral(5)).toBe(true);
    expect(packed.isLiteral(1)).toBe(false);
    expect(PackedTerms.check(packed)).toBeUndefined();
  });

  it('says why parts read from outside cannot be used', () => {
    const packed = PackedTerms.fromTerms(terms);
    const parts = () => ({
      bytes: packed.bytes,
      offsets: packed.offsets.slice(),
      slots: packed.slots.slice(),
      illFormed: new Map(packed.illFormed),
    });
    const backwards = parts();
    backwards.offsets[2] = 1;
    expect(PackedTerms.check(backwards)).toBe('damaged term offsets');
    const past = parts();
    past.offsets[6] = (past.offsets[6] as number) + 1;
    expect(PackedTerms.check(past)).toBe('damaged term offsets');
    const unknownId = parts();
    unknownId.slots[0] = 99;
    expect(PackedTerms.check(unknownId)).toBe('a damaged term hash table');
    const full = parts();
    full.slots.fill(1);
    expect(PackedTerms.check(full)).toBe('a damaged term hash table');
    const wrongSize = { ...parts(), slots: new Uint32Array(4) };
    expect(PackedTerms.check(wrongSize)).toBe('a damaged term hash table');
    const notEmpty = parts();
    notEmpty.illFormed.set(1, 'x');
    expect(PackedTerms.check(notEmpty)).toBe('damaged terms');
  });
});
