import type { SearchHit } from '@dcg/governance-schema';
import type { FusedHit } from './hybrid-ranking';
import type { QueryTerm } from './lexical-index';

const quoted = (m: QueryTerm): string =>
  m.via === 'typo'
    ? `"${m.term}" (read for "${m.typed}")`
    : m.via === 'synonym'
      ? `"${m.term}" (a synonym of "${m.typed}")`
      : `"${m.term}"`;

/**
 * Why a hit is in the answer, as evidence codes (`matchedBy`) and in plain words (`why`): an
 * exact URN or name match, the query words it matched (with typos read as words and synonyms
 * said as such), how close it is in meaning, and how these combine into its place.
 *
 * @example
 * explainHit(hit).why;
 * // 'Words: "debtor", "bucket" (rank 1 by words). Close in meaning: similarity 0.61 (rank 2 by
 * // meaning). Found by words and by meaning, so it ranks above hits found only one way.'
 */
export function explainHit(h: FusedHit): Pick<SearchHit, 'matchedBy' | 'why'> {
  const matchedBy: SearchHit['matchedBy'] = [];
  const why: string[] = [];
  if (h.exact === 'urn') {
    matchedBy.push('exact-urn');
    why.push('Its URN is the query, and exact matches come first.');
  } else if (h.exact === 'name') {
    matchedBy.push('exact-name');
    why.push('Its name is the query, and exact matches come first.');
  }
  const words = h.lexical && h.lexical.matchedTerms.length > 0 ? h.lexical : undefined;
  if (words) {
    matchedBy.push('words');
    why.push(`Words: ${words.matches.map(quoted).join(', ')} (rank ${words.rank} by words).`);
  }
  if (h.vector) {
    matchedBy.push('meaning');
    why.push(
      `Close in meaning: similarity ${h.vector.similarity.toFixed(2)} (rank ${h.vector.rank} by meaning).`,
    );
  }
  if (h.exact === undefined) {
    if (words && h.vector)
      why.push('Found by words and by meaning, so it ranks above hits found only one way.');
    else if (words) why.push('Found by its words only.');
    else if (h.vector) why.push('Found by meaning only: none of the query words are in it.');
  }
  return { matchedBy, why: why.join(' ') };
}
