import { foldedWords } from '@dcg/text-match';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldWords } from './fold-words';

describe('foldWords', () => {
  it('gives what foldedWords gives, ASCII or not', () => {
    for (const text of [
      'Water-quality  index',
      'data-42',
      '  A1b2 ',
      '',
      '--',
      'Crème brûlée',
      'STRASSE Straße',
    ])
      expect(foldWords(text)).toEqual(foldedWords(text));
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        expect(foldWords(text)).toEqual(foldedWords(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(foldWords(text)).toEqual(foldedWords(text));
      }),
      { numRuns: 500 },
    );
  });
});
