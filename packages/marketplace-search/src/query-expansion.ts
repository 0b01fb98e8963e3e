/**
 * Where a search finds synonyms of a query word (a folded, lower-case word). Synonyms are
 * looked up on the query side only and weigh less than the words typed (`SYNONYM_WEIGHT`);
 * only synonyms that some indexed instance uses count.
 *
 * @example
 * const thesaurus: Thesaurus = { synonyms: (word) => (word === 'wages' ? ['pay', 'salary'] : []) };
 */
export interface Thesaurus {
  synonyms(word: string): readonly string[];
  /** Releases what it holds (open files); the search calls it when it closes. */
  close?(): void;
}
