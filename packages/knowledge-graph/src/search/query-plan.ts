import type { SourceSearchIndex } from './source-search-index';

/**
 * A literal that equals the whole query (e.g. the label "Water" for "water") gets this many
 * times the summed word IDFs on top (× its predicate's weight), so an exact label beats a label
 * that merely contains it.
 */
export const PHRASE_BONUS = 1.5;

/** The whole-label bonus of a literal of a predicate of `weight`, for words of `idfSum`. */
export function wholeLabelBonus(weight: number, idfSum: number): number {
  return PHRASE_BONUS * weight * Math.max(idfSum, 1);
}

/** One list a query word reaches: a word of one source, and how much a match through it counts. */
export interface Expansion {
  source: SourceSearchIndex;
  /** The word's id in its source. */
  word: number;
  factor: number;
}

/**
 * One query word: its expansions, their IDF-scaled factors (`scales[i]` for `expansions[i]`;
 * an entry scores `scale × impact`, a document the best of its entries), and how many entries
 * they hold.
 */
export interface WordPlan {
  expansions: Expansion[];
  scales: number[];
  entries: number;
}
