import { TypoIndex } from '@dcg/text-match';
import type { TripleStore } from '../store/triple-store';
import type { DocHolder, DocRegistry } from './doc-registry';
import { foldWords } from './fold-words';
import type { Postings, SearchPredicate } from './postings';
import { type SearchIndexData, samePredicates } from './search-index-data';
import { lowerBound } from './sorted-search';
import { facetOf, literalParts, NOT_A_DOC, SourceIndexBuilder } from './source-index-builder';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SKOS_IN_SCHEME = 'http://www.w3.org/2004/02/skos/core#inScheme';

/** Units of work (rows, words) between two steps of {@link SourceSearchIndex.buildInSteps}. */
const BUILD_SLICE = 2_000;
/** Words per block of the most-frequent-completion search (see `mostFrequentWithPrefix`). */
const FREQUENCY_BLOCK = 64;

/**
 * The search index of one source's graph, built from its {@link TripleStore}: the literals are
 * read from the store's dictionary, by id, and the index refers to them by id (no copy of a
 * label is kept). It is immutable once built: replacing a source builds a new one and swaps it
 * in, so the index follows ingestion per source without a full rebuild.
 *
 * @example
 * const index = SourceSearchIndex.build(store, predicates, registry);
 * index.docFrequency(index.wordId('water'));
 */
export class SourceSearchIndex {
  /** Distinct documents of this source. */
  readonly docCount: number;
  /** The id of each word (its postings' index). */
  readonly words: Map<string, number>;
  readonly postings: Postings;
  /** The weight of each searchable predicate, by index. */
  readonly weights: Float64Array;
  /**
   * Language tags of the indexed literals as the store holds them, `''` (index 0) for a literal
   * without one.
   */
  readonly languages: readonly string[];
  /** Documents per `rdf:type` IRI (the document's own statements in this source). */
  readonly types: Map<string, Int32Array>;
  /** Documents per `skos:inScheme` IRI. */
  readonly schemes: Map<string, Int32Array>;
  /** Every word, sorted, for prefix ranges. */
  readonly sortedTerms: string[];
  /** The document frequency of each word of {@link sortedTerms}. */
  readonly #sortedFrequencies: Uint32Array;
  readonly #store: TripleStore;
  readonly #docIds: Int32Array;
  /** The subject (dictionary id) of each document of {@link #docIds}, same order. */
  readonly #docSubjects: Uint32Array;
  readonly #predicates: readonly SearchPredicate[];
  #typos: TypoIndex | undefined;
  /** See {@link lengthBits} and {@link docSet}: derived from the postings on first use. */
  readonly #lengthBits = new Map<number, number>();
  readonly #docSets = new Map<number, Uint32Array>();
  #maxDoc: number | undefined;
  #blocks: Uint32Array | undefined;
  readonly #registry: DocRegistry;
  readonly #holder: DocHolder;
  #released = false;

  private constructor(init: {
    store: TripleStore;
    registry: DocRegistry;
    holder: DocHolder;
    predicates: readonly SearchPredicate[];
    docIds: Int32Array;
    docSubjects: Uint32Array;
    words: Map<string, number>;
    /** The words sorted, when known (a restored index): saves sorting them again. */
    sortedTerms?: string[];
    postings: Postings;
    weights: Float64Array;
    languages: string[];
    types: Map<string, Int32Array>;
    schemes: Map<string, Int32Array>;
  }) {
    this.#store = init.store;
    this.languages = init.languages;
    this.types = init.types;
    this.schemes = init.schemes;
    this.#registry = init.registry;
    this.#holder = init.holder;
    this.#docIds = init.docIds;
    this.#docSubjects = init.docSubjects;
    this.#predicates = init.predicates;
    this.docCount = init.docIds.length;
    this.words = init.words;
    this.postings = init.postings;
    this.weights = init.weights;
    this.sortedTerms = init.sortedTerms ?? [...init.words.keys()].sort();
    const frequencies = init.postings.frequencies;
    this.#sortedFrequencies = Uint32Array.from(
      this.sortedTerms,
      (term) => frequencies[init.words.get(term)!]!,
    );
  }

  /**
   * Indexes the literals of `store` whose predicate is one of `predicates` and whose subject is
   * an IRI (search answers full IRIs only; blank nodes are not addressable).
   */
  static build(
    store: TripleStore,
    predicates: readonly SearchPredicate[],
    registry: DocRegistry,
  ): SourceSearchIndex {
    const steps = SourceSearchIndex.buildInSteps(store, predicates, registry);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * {@link SourceSearchIndex.build} in steps: the generator yields after every slice of work, so
   * that a caller can let the event loop run between slices; it returns the index.
   */
  static *buildInSteps(
    store: TripleStore,
    predicates: readonly SearchPredicate[],
    registry: DocRegistry,
  ): Generator<void, SourceSearchIndex, void> {
    // The work is done by the builder's plain methods, a slice at a time: a generator's own
    // loops are not optimised as well (they took most of the time at 10M triples).
    const builder = new SourceIndexBuilder(store, predicates, registry);
    for (const [from, to] of builder.predicateRows)
      for (let at = from; at < to; at += BUILD_SLICE * 16) {
        builder.markSubjects(at, Math.min(to, at + BUILD_SLICE * 16));
        yield;
      }
    const subjects = store.terms.size + 1;
    for (let at = 1; at < subjects; at += BUILD_SLICE * 16) {
      builder.acquireDocs(at, Math.min(subjects, at + BUILD_SLICE * 16));
      yield;
    }
    for (let p = 0; p < predicates.length; p++) {
      const [from, to] = builder.predicateRows[p] as [number, number];
      builder.startPredicate();
      for (let at = from; at < to; at += BUILD_SLICE) {
        builder.indexRows(p, at, Math.min(to, at + BUILD_SLICE));
        yield;
      }
    }
    builder.group();
    yield;
    for (let at = 0; at < builder.wordCount; at += BUILD_SLICE * 4) {
      builder.postWords(at, Math.min(builder.wordCount, at + BUILD_SLICE * 4));
      yield;
    }
    const { words, postings, docIds, docSubjects, languages } = builder.finish();
    return new SourceSearchIndex({
      store,
      registry,
      holder: builder.holder,
      predicates,
      docIds,
      docSubjects,
      words,
      postings,
      weights: builder.weights,
      languages,
      types: builder.facet(RDF_TYPE),
      schemes: builder.facet(SKOS_IN_SCHEME),
    });
  }

  /**
   * The index of `store` from its persisted form (see {@link SourceSearchIndex.toData}), or
   * undefined when it was built for other predicates (the caller builds it then). The data must
   * have been checked against the store (the snapshot decoder does).
   */
  static restore(
    store: TripleStore,
    predicates: readonly SearchPredicate[],
    registry: DocRegistry,
    data: SearchIndexData,
  ): SourceSearchIndex | undefined {
    if (!samePredicates(data.predicates, predicates)) return undefined;
    const { docSubjects, sortedWords, sortedIds } = data;
    const terms = store.terms;
    const subjectDocs = new Int32Array(terms.size + 1).fill(NOT_A_DOC);
    const holder = registry.hold(store, subjectDocs);
    const docIds = new Int32Array(docSubjects.length);
    let ordered = true;
    for (let i = 0; i < docSubjects.length; i++) {
      docIds[i] = registry.acquire(holder, docSubjects[i]!);
      if (i > 0 && docIds[i]! <= docIds[i - 1]!) ordered = false;
    }
    const local = data.postings;
    const docs = new Int32Array(local.docs.length);
    for (let k = 0; k < docs.length; k++) docs[k] = docIds[local.docs[k]!]!;
    const postings: Postings = { ...local, docs };
    // Within a word entries are in document order; ids handed out in another order (the
    // registry reuses freed ids) need the words re-sorted.
    if (!ordered) sortWithinWords(postings);
    const words = new Map<string, number>();
    for (let i = 0; i < sortedWords.length; i++) words.set(sortedWords[i]!, sortedIds[i]!);
    return new SourceSearchIndex({
      store,
      registry,
      holder,
      predicates,
      docIds,
      docSubjects,
      words,
      sortedTerms: sortedWords,
      postings,
      weights: Float64Array.from(predicates, (p) => p.weight),
      languages: data.languages,
      types: facetOf(store, subjectDocs, RDF_TYPE),
      schemes: facetOf(store, subjectDocs, SKOS_IN_SCHEME),
    });
  }

  /** The persisted form of this index (arrays shared, not copied, where they can be). */
  toData(): SearchIndexData {
    const local = new Int32Array(this.#registry.capacity);
    for (let i = 0; i < this.#docIds.length; i++) local[this.#docIds[i]!] = i;
    const docs = Int32Array.from(this.postings.docs, (doc) => local[doc]!);
    return {
      predicates: this.#predicates.map(({ iri, weight }) => ({ iri, weight })),
      languages: [...this.languages],
      docSubjects: this.#docSubjects,
      sortedWords: this.sortedTerms,
      sortedIds: Uint32Array.from(this.sortedTerms, (word) => this.words.get(word)!),
      postings: { ...this.postings, docs },
    };
  }

  /** The id of a word, -1 when this source does not have it. */
  wordId(word: string): number {
    return this.words.get(word) ?? -1;
  }

  /** The number of documents that have a word (by id). */
  docFrequency(wordId: number): number {
    return this.postings.frequencies[wordId]!;
  }

  /** The folded words of a literal of this source, read from the store's dictionary. */
  literalWords(literal: number): string[] {
    return foldWords(literalParts(this.#store.terms.term(literal)).lex);
  }

  /**
   * The id of the one of `words` with the fewest entries, -1 when one is no word of this source.
   * A literal equal to a query holds every query word: it is among the rarest one's entries.
   */
  rarestWord(words: readonly string[]): number {
    const { starts } = this.postings;
    let rarest = -1;
    for (const word of words) {
      const id = this.wordId(word);
      if (id < 0) return -1;
      if (rarest < 0 || starts[id + 1]! - starts[id]! < starts[rarest + 1]! - starts[rarest]!)
        rarest = id;
    }
    return rarest;
  }

  /**
   * Whether the literal of postings entry `entry` (of a word of the query) is the whole query:
   * as many words (`n`), and the same words in order (`phrase`, read from the dictionary).
   */
  isWholeLabel(entry: number, n: number, phrase: string): boolean {
    const { lengths, literals } = this.postings;
    if (lengths[entry] !== n) return false;
    return n === 1 || this.literalWords(literals[entry]!).join(' ') === phrase;
  }

  /** The range of {@link sortedTerms} that start with `prefix`. */
  #prefixRange(prefix: string): [number, number] {
    const terms = this.sortedTerms;
    const from = lowerBound(terms, 0, terms.length, prefix);
    // The words that start with the prefix come first from there: a binary search finds the end.
    let lo = from;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [from, lo];
  }

  /** Words of this source that start with `prefix` (excluding `prefix` itself). */
  termsWithPrefix(prefix: string): string[] {
    const [from, to] = this.#prefixRange(prefix);
    return this.sortedTerms.slice(from, to).filter((term) => term !== prefix);
  }

  /**
   * The `max` words that start with `prefix` (excluding `prefix` itself) in the most documents,
   * most first, ties in word order: a selection over a typed array of document frequencies, so
   * that a one-letter prefix with 100,000 completions costs no sort and no array of them; once
   * `max` are kept, a block of words none of which is more frequent than the last kept is
   * skipped whole (see {@link #frequencyBlocks}).
   */
  mostFrequentWithPrefix(prefix: string, max: number): string[] {
    if (max <= 0) return [];
    const [from, to] = this.#prefixRange(prefix);
    const terms = this.sortedTerms;
    const frequencies = this.#sortedFrequencies;
    const blocks = to - from > FREQUENCY_BLOCK ? this.#frequencyBlocks() : undefined;
    const best: number[] = []; // indexes into sortedTerms, most frequent first
    let i = from;
    while (i < to) {
      const full = best.length === max;
      const least = full ? frequencies[best[max - 1]!]! : 0;
      if (
        full &&
        blocks !== undefined &&
        i % FREQUENCY_BLOCK === 0 &&
        i + FREQUENCY_BLOCK <= to &&
        blocks[i / FREQUENCY_BLOCK]! <= least
      ) {
        i += FREQUENCY_BLOCK;
        continue;
      }
      const df = frequencies[i]!;
      if (!(full && df <= least) && terms[i] !== prefix) {
        let at = full ? max - 1 : best.length;
        while (at > 0 && frequencies[best[at - 1]!]! < df) {
          best[at] = best[at - 1]!;
          at--;
        }
        best[at] = i;
      }
      i++;
    }
    return best.map((i) => terms[i]!);
  }

  /**
   * The largest document frequency of each block of {@link FREQUENCY_BLOCK} words of
   * {@link sortedTerms}, computed on first use (for short prefixes, which reach many words).
   */
  #frequencyBlocks(): Uint32Array {
    if (this.#blocks === undefined) {
      const frequencies = this.#sortedFrequencies;
      const blocks = new Uint32Array(Math.ceil(frequencies.length / FREQUENCY_BLOCK));
      for (let i = 0; i < frequencies.length; i++) {
        const b = (i / FREQUENCY_BLOCK) | 0;
        if (frequencies[i]! > blocks[b]!) blocks[b] = frequencies[i]!;
      }
      this.#blocks = blocks;
    }
    return this.#blocks;
  }

  /**
   * The word counts of the literals that hold a word (by id), as bits: bit `min(n, 31)` is set
   * when one of them has `n` words. Whole-label matches need a literal as long as the query, so
   * a search knows from this whether any can occur. Read from the postings on first use.
   */
  lengthBits(wordId: number): number {
    let bits = this.#lengthBits.get(wordId);
    if (bits === undefined) {
      const { starts, lengths } = this.postings;
      bits = 0;
      const end = starts[wordId + 1]!;
      for (let i = starts[wordId]!; i < end; i++) bits |= 1 << Math.min(lengths[i]!, 31);
      this.#lengthBits.set(wordId, bits);
    }
    return bits;
  }

  /**
   * The documents of a word (by id) as a bit set over document ids, for membership tests; built
   * on first use, and only for a word in at least 1/32 of the ids (so that it is never larger
   * than the word's postings): undefined otherwise.
   */
  docSet(wordId: number): Uint32Array | undefined {
    let set = this.#docSets.get(wordId);
    if (set !== undefined) return set;
    this.#maxDoc ??= this.#docIds.reduce((max, doc) => Math.max(max, doc), 0);
    const bits = this.#maxDoc + 1;
    if (this.postings.frequencies[wordId]! * 32 < bits) return undefined;
    set = new Uint32Array((bits + 31) >>> 5);
    const { starts, docs } = this.postings;
    const end = starts[wordId + 1]!;
    for (let i = starts[wordId]!; i < end; i++) set[docs[i]! >>> 5]! |= 1 << (docs[i]! & 31);
    this.#docSets.set(wordId, set);
    return set;
  }

  /** The words of this source for typo lookups (built on first use, in sorted order). */
  get typos(): TypoIndex {
    this.#typos ??= new TypoIndex(this.sortedTerms);
    return this.#typos;
  }

  /** Gives this index's document ids back to the registry; call once, after swapping it out. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#registry.release(this.#holder, this.#docIds, this.#docSubjects);
  }
}

/** Re-sorts the entries of every word by document (all parallel arrays alike). */
function sortWithinWords(postings: Postings): void {
  const { starts, docs, impacts, langs, literals, lengths, predicates } = postings;
  const columns = [docs, impacts, langs, literals, lengths, predicates];
  for (let w = 0; w + 1 < starts.length; w++) {
    const from = starts[w]!;
    const to = starts[w + 1]!;
    let sorted = true;
    for (let k = from + 1; k < to && sorted; k++) if (docs[k]! < docs[k - 1]!) sorted = false;
    if (sorted) continue;
    const order = Array.from({ length: to - from }, (_, i) => from + i).sort(
      (a, b) => docs[a]! - docs[b]! || a - b,
    );
    for (const column of columns) {
      const values = order.map((k) => column[k]!);
      column.set(values, from);
    }
  }
}
