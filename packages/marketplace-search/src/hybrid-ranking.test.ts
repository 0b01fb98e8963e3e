import { describe, expect, it } from 'vitest';
import { type FusedHit, fuseRankings, keepRelevant } from './hybrid-ranking';
import type { LexicalHit } from './lexical-index';

const lexical = (key: string, score: number, exact?: 'name'): LexicalHit => ({
  key,
  score,
  matchedTerms: ['invoice'],
  matches: [{ term: 'invoice', typed: 'invoices', via: 'word', weight: 1 }],
  exact,
});

describe('keepRelevant', () => {
  const fused: FusedHit[] = fuseRankings(
    [lexical('strong', 8), lexical('half', 4), lexical('weak', 1)],
    [
      { key: 'close', similarity: 0.5 },
      { key: 'strong', similarity: 0.45 },
      { key: 'near', similarity: 0.48 },
      { key: 'far', similarity: 0.39 },
      { key: 'weak', similarity: 0.31 },
    ],
    { limit: 10 },
  );

  it('keeps word matches at least half the best, and meaning within the margin of the best', () => {
    const kept = keepRelevant(fused, { meaning: { similarity: 0.38, margin: 0.03 } });
    expect(kept.map((h) => h.key).sort()).toEqual(['close', 'half', 'near', 'strong']);
    // Order is the fusion's.
    expect(kept.map((h) => h.key)).toEqual(
      fused.map((h) => h.key).filter((k) => kept.some((h) => h.key === k)),
    );
  });

  it('keeps every vector hit without a meaning cut, and always an exact match', () => {
    expect(
      keepRelevant(fused)
        .map((h) => h.key)
        .sort(),
    ).toEqual(['close', 'far', 'half', 'near', 'strong', 'weak']);
    const exact = fuseRankings([lexical('big', 9), lexical('named', 0.1, 'name')], [], {
      limit: 5,
    });
    expect(keepRelevant(exact).map((h) => h.key)).toEqual(['named', 'big']);
  });
});
