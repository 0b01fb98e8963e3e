import type { LexicalHit, QueryTerm } from './lexical-index';
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
  lexical:
    | { rank: number; score: number; matchedTerms: string[]; matches: QueryTerm[] }
    | undefined;
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
 * fuseRankings([{ key: 'a', score: 3, matchedTerms: ['invoice'], matches: [], exact: undefined }], [{ key: 'a', similarity: 0.8 }], { limit: 5 })[0]?.key; // 'a'
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
    hit.lexical = {
      rank: i + 1,
      score: h.score,
      matchedTerms: h.matchedTerms,
      matches: h.matches,
    };
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

/**
 * How close in meaning a hit found only by meaning must be to stay in the answer: its cosine
 * similarity at least `similarity`, and at most `margin` below the best similarity of the query.
 * Model-specific, calibrated per model on the quality set (README, "How search ranks").
 *
 * @example
 * const cut: MeaningCut = { similarity: 0.38, margin: 0.03 };
 */
export interface MeaningCut {
  similarity: number;
  margin: number;
}

/**
 * A word match weaker than this share of the best word match's BM25 score (a query word found
 * in passing, where another hit has them in its name) stays only if it is also close in meaning.
 * Calibrated on the held-out quality set: 0.5 is the middle of the range (0.4–0.6) in which
 * precision@5 rose and no category's recall@5 fell.
 */
export const LEXICAL_SCORE_RATIO = 0.5;

/**
 * The hits that match the query's words or come close to its meaning, in their order; the rest
 * are cut. A hit stays when it is an exact URN or name match; when its word score is at least
 * `lexicalRatio` (default {@link LEXICAL_SCORE_RATIO}) of the best word score; or when its
 * similarity passes `meaning` (without `meaning`, any vector hit passes: the vector index's
 * floor was the only cut).
 *
 * @example
 * keepRelevant(fused, { meaning: { similarity: 0.38, margin: 0.03 } });
 */
export function keepRelevant(
  hits: readonly FusedHit[],
  options: { meaning?: MeaningCut | undefined; lexicalRatio?: number } = {},
): FusedHit[] {
  let bestLexical = 0;
  let bestSimilarity = Number.NEGATIVE_INFINITY;
  for (const h of hits) {
    if (h.lexical && h.lexical.score > bestLexical) bestLexical = h.lexical.score;
    if (h.vector && h.vector.similarity > bestSimilarity) bestSimilarity = h.vector.similarity;
  }
  const lexicalFloor = bestLexical * (options.lexicalRatio ?? LEXICAL_SCORE_RATIO);
  const meaning = options.meaning;
  const similarityFloor = meaning
    ? Math.max(meaning.similarity, bestSimilarity - meaning.margin)
    : Number.NEGATIVE_INFINITY;
  return hits.filter(
    (h) =>
      h.exact !== undefined ||
      (h.lexical !== undefined &&
        h.lexical.matchedTerms.length > 0 &&
        h.lexical.score >= lexicalFloor) ||
      (h.vector !== undefined && h.vector.similarity >= similarityFloor),
  );
}
