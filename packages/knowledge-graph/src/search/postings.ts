/** A literal predicate that search matches, with its ranking weight. */
export interface SearchPredicate {
  iri: string;
  weight: number;
}

/**
 * The postings of a source's words, as parallel typed arrays shared by all words: the entries of
 * word `w` are `[starts[w], starts[w + 1])`, one per literal that holds the word, each with its
 * document, its precomputed BM25 impact (predicate weight × saturated term frequency with
 * length normalisation, so that a query multiplies by the IDF only), and its literal's language,
 * dictionary id, word count and predicate.
 */
export interface Postings {
  /** Within a word, entries are in document order. */
  starts: Uint32Array;
  /** Number of distinct documents of each word (for IDF). */
  frequencies: Uint32Array;
  /** The largest impact of each word (a bound for skipping it). */
  maxImpacts: Float32Array;
  docs: Int32Array;
  impacts: Float32Array;
  /** Language of each entry's literal: an index into the index's `languages`. */
  langs: Uint16Array | Int32Array;
  /** The literal of each entry: its id in the store's dictionary (never a copy of its text). */
  literals: Uint32Array;
  /** How many words the entry's literal has (at most 65,535), for whole-label matches. */
  lengths: Uint16Array;
  /** The predicate of each entry: an index into the searchable predicates. */
  predicates: Uint16Array;
}
