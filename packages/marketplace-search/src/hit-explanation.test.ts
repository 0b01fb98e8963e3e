import { describe, expect, it } from 'vitest';
import { explainHit } from './hit-explanation';
import type { FusedHit } from './hybrid-ranking';

const hit = (over: Partial<FusedHit>): FusedHit => ({
  key: 'production\u0000urn:x',
  score: 0.03,
  exact: undefined,
  lexical: undefined,
  vector: undefined,
  ...over,
});

describe('explainHit', () => {
  it('says which words matched, typos and synonyms included, and how words and meaning combine', () => {
    const explained = explainHit(
      hit({
        lexical: {
          rank: 2,
          score: 3.1,
          matchedTerms: ['order', 'pay'],
          matches: [
            { term: 'order', typed: 'ordres', via: 'typo', weight: 0.6 },
            { term: 'pay', typed: 'wages', via: 'synonym', weight: 0.4 },
          ],
        },
        vector: { rank: 5, similarity: 0.4123 },
      }),
    );
    expect(explained).toEqual({
      matchedBy: ['words', 'meaning'],
      why:
        'Words: "order" (read for "ordres"), "pay" (a synonym of "wages") (rank 2 by words). ' +
        'Close in meaning: similarity 0.41 (rank 5 by meaning). ' +
        'Found by words and by meaning, so it ranks above hits found only one way.',
    });
  });

  it('puts an exact match first in words, and says when meaning alone found a hit', () => {
    expect(explainHit(hit({ exact: 'name' }))).toEqual({
      matchedBy: ['exact-name'],
      why: 'Its name is the query, and exact matches come first.',
    });
    expect(explainHit(hit({ vector: { rank: 1, similarity: 0.5 } })).why).toBe(
      'Close in meaning: similarity 0.50 (rank 1 by meaning). Found by meaning only: none of the query words are in it.',
    );
  });
});
