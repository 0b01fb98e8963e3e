import { describe, expect, it } from 'vitest';
import { foldedWords, foldText } from './fold-text';

describe('foldText', () => {
  it('drops diacritics, folds case fully and turns punctuation into spaces', () => {
    expect(foldText('Crème-Brûlée, SÃO   Paulo!')).toBe('creme brulee sao paulo');
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('STRASSE')).toBe('strasse');
    expect(foldText('İstanbul')).toBe('istanbul');
  });

  it('splits folded text into words', () => {
    expect(foldedWords('Water-quality  index')).toEqual(['water', 'quality', 'index']);
    expect(foldedWords(' ,; ')).toEqual([]);
  });
});
