import type { Postings, SearchPredicate } from './postings';

/**
 * A source's search index as it is persisted beside its graph's snapshot, so that start-up reads
 * it instead of rebuilding it: the postings' typed arrays as they are in memory, with documents
 * numbered locally (`docs` holds indexes into `docSubjects`, the subjects' ids in the store's
 * dictionary) since the shared document ids of a {@link SearchIndex} differ between processes.
 * The words are kept once, sorted, with their ids; labels are never copied (entries name their
 * literal by dictionary id).
 */
export interface SearchIndexData {
  /** The searchable predicates it was built for; another configuration rebuilds the index. */
  predicates: SearchPredicate[];
  languages: string[];
  /** The subject (dictionary id) of each local document, in document order. */
  docSubjects: Uint32Array;
  /** Every word of the source, sorted (words never hold a space). */
  sortedWords: string[];
  /** The id (postings index) of each word of {@link sortedWords}. */
  sortedIds: Uint32Array;
  /** Postings with `docs` as local document indexes. */
  postings: Postings;
}

/** Whether persisted index data was built for exactly these predicates and weights. */
export function samePredicates(a: readonly SearchPredicate[], b: readonly SearchPredicate[]) {
  return (
    a.length === b.length && a.every((p, i) => p.iri === b[i]!.iri && p.weight === b[i]!.weight)
  );
}
