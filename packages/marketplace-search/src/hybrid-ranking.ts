import type { LexicalHit } from './lexical-index';
import type { VectorHit } from './vector-index';

/**
 * A fused hit with the evidence from each ranking: its lexical rank, score and matched terms,
 * its vector rank and similarity, and an exact URN or name match.
 *
 * @example
 * const [top] = fuseRankings(lexicalHits, vectorHits, { limit: 10 });
 */
export interface FusedHit {
  key: string;
  score: number;
  exact: 'urn' | 'name' | undefined;
  lexical: { rank: number; score: number; matchedTerms: string[] } | undefined;
  vector: { rank: number; similarity: number } | undefined;
}

/**
 * Options of {@link fuseRankings}.
 *
 * @example
 * const options: FusionOptions = { limit: 10, k: 60 };
 */
export interface FusionOptions {
  limit: number;
  /** The RRF constant: larger values flatten the advantage of the top ranks. Default 60. */
  k?: number;
  /** Weight of the lexical ranking (default 1). */
  lexicalWeight?: number;
  /** Weight of the vector ranking (default 1). */
  vectorWeight?: number;
}

/**
 * Reciprocal rank fusion: each hit scores Σ weight / (k + rank) over the rankings it appears in,
 * so an instance found by meaning and by words rises above one found by either alone, with no
 * need to calibrate BM25 scores against cosine similarities. An exact URN or name match is put
 * first: someone who types an identifier means that instance.
 *
 * @example
 * fuseRankings([{ key: 'a', score: 3, matchedTerms: ['invoice'], exact: undefined }], [{ key: 'a', similarity: 0.8 }], { limit: 5 })[0]?.key; // 'a'
 */
export function fuseRankings(
  lexical: readonly LexicalHit[],
  vector: readonly VectorHit[],
  options: FusionOptions,
): FusedHit[] {
  const k = options.k ?? 60;
  const lw = options.lexicalWeight ?? 1;
  const vw = options.vectorWeight ?? 1;
  const fused = new Map<string, FusedHit>();
  const get = (key: string): FusedHit => {
    let hit = fused.get(key);
    if (!hit) {
      hit = { key, score: 0, exact: undefined, lexical: undefined, vector: undefined };
      fused.set(key, hit);
    }
    return hit;
  };
  lexical.forEach((h, i) => {
    const hit = get(h.key);
    hit.score += lw / (k + i + 1);
    hit.exact = h.exact;
    hit.lexical = { rank: i + 1, score: h.score, matchedTerms: h.matchedTerms };
  });
  vector.forEach((h, i) => {
    const hit = get(h.key);
    hit.score += vw / (k + i + 1);
    hit.vector = { rank: i + 1, similarity: h.similarity };
  });
  return [...fused.values()]
    .sort((a, b) => (a.exact ? 0 : 1) - (b.exact ? 0 : 1) || b.score - a.score)
    .slice(0, options.limit);
}
