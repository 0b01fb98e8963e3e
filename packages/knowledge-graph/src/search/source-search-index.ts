import { TypoIndex } from '@dcg/text-match';
import type { TripleIndex } from '../store/triple-index';
import type { TripleStore } from '../store/triple-store';
import type { DocHolder, DocRegistry } from './doc-registry';
import { foldWords } from './fold-words';
import { type SearchIndexData, samePredicates } from './search-index-data';
import { lowerBound } from './sorted-search';

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
  /** Language of each entry's literal: an index into {@link SourceSearchIndex.languages}. */
  langs: Uint16Array | Int32Array;
  /** The literal of each entry: its id in the store's dictionary (never a copy of its text). */
  literals: Uint32Array;
  /** How many words the entry's literal has (at most 65,535), for whole-label matches. */
  lengths: Uint16Array;
  /** The predicate of each entry: an index into the searchable predicates. */
  predicates: Uint16Array;
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SKOS_IN_SCHEME = 'http://www.w3.org/2004/02/skos/core#inScheme';
const QUOTE = 34;

// BM25 parameters. b is softer than the usual 0.75: labels are short, and a long label that
// holds the word as written must still beat a short one that only completes a prefix.
const K1 = 1.2;
const B = 0.5;

/** Units of work (rows, words) between two steps of {@link SourceSearchIndex.buildInSteps}. */
const BUILD_SLICE = 2_000;
/** Words per block of the most-frequent-completion search (see `mostFrequentWithPrefix`). */
const FREQUENCY_BLOCK = 64;
/** Below this length V8 copies substrings; a longer word kept as a key is copied flat. */
const SLICE_MIN_LENGTH = 13;

/** The lexical form and language tag of a literal in the engine id form (`"lex"@lang`). */
function literalParts(id: string): { lex: string; lang: string } {
  const end = id.lastIndexOf('"');
  const lex = id.slice(1, end);
  return { lex, lang: id.charCodeAt(end + 1) === 64 ? id.slice(end + 2) : '' };
}

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

const DOC_UNSEEN = -1;
const NOT_A_DOC = -2;

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

/**
 * Documents per `rdf:type` or `skos:inScheme` IRI (`iri`) of `store`, for the subjects that are
 * documents (`subjectDocs`: the document of each subject term, negative when none).
 */
function facetOf(
  store: TripleStore,
  subjectDocs: Int32Array,
  iri: string,
): Map<string, Int32Array> {
  const pos = store.pos;
  const grouped = new Map<string, Int32Array>();
  const p = store.termId(iri);
  if (p === 0 || p >= pos.offsets.length - 1) return grouped;
  const from = pos.offsets[p] as number;
  const to = pos.offsets[p + 1] as number;
  const { second, third } = pos;
  const terms = store.terms;
  let row = from;
  while (row < to) {
    const o = second[row] as number;
    let end = row + 1;
    while (end < to && second[end] === o) end++;
    const value = terms.term(o);
    if (value.charCodeAt(0) !== QUOTE && !value.startsWith('_:')) {
      const docs: number[] = [];
      for (let r = row; r < end; r++) {
        const doc = subjectDocs[third[r] as number] as number;
        if (doc >= 0) docs.push(doc);
      }
      if (docs.length > 0) grouped.set(value, Int32Array.from(docs));
    }
    row = end;
  }
  return grouped;
}

/** The state and steps of building a {@link SourceSearchIndex} (see its `buildInSteps`). */
class SourceIndexBuilder {
  readonly predicateRows: Array<[number, number]>;
  readonly weights: Float64Array;
  readonly #store: TripleStore;
  readonly #pos: TripleIndex;
  readonly #registry: DocRegistry;
  /** The document of each subject term (or {@link NOT_A_DOC}). */
  readonly #subjectDocs: Int32Array;
  /** The registry's hold of this index (its `docOf` is {@link #subjectDocs}). */
  readonly holder: DocHolder;
  readonly #localDocs: number[] = [];
  readonly #localSubjects: number[] = [];
  readonly #lengthSums: Float64Array;
  readonly #literalCounts: Float64Array;
  // Postings are collected as flat entries in growable typed arrays and grouped by word at the
  // end (a counting sort): a few large allocations instead of one small array per word, which
  // keeps the garbage collector out of the way on large graphs.
  /** Word id, doc, predicate, tf, literal length, language, literal. */
  readonly #entries = new EntryTable(7);
  readonly #wordIds = new Map<string, number>();
  readonly #languageIds = new Map<string, number>([['', 0]]);
  // The literal being indexed: its words (distinct), their counts, its length and language.
  #literal = 0;
  #length = 0;
  #lang = 0;
  #distinct = 0;
  readonly #literalWords: number[] = [];
  readonly #literalTfs: number[] = [];
  #grouped: { order: Int32Array; starts: Int32Array } | undefined;
  #postings: Postings | undefined;
  #seen: Uint8Array | undefined;

  constructor(store: TripleStore, predicates: readonly SearchPredicate[], registry: DocRegistry) {
    this.#store = store;
    this.#pos = store.pos;
    this.#registry = registry;
    this.predicateRows = predicates.map((p) => this.rowsOf(p.iri));
    this.weights = Float64Array.from(predicates, (p) => p.weight);
    this.#lengthSums = new Float64Array(predicates.length);
    this.#literalCounts = new Float64Array(predicates.length);
    this.#subjectDocs = new Int32Array(store.terms.size + 1).fill(NOT_A_DOC);
    this.holder = registry.hold(store, this.#subjectDocs);
  }

  /** The POS rows of a predicate. */
  rowsOf(iri: string): [number, number] {
    const pos = this.#pos;
    const p = this.#store.termId(iri);
    if (p === 0 || p >= pos.offsets.length - 1) return [0, 0];
    return [pos.offsets[p] as number, pos.offsets[p + 1] as number];
  }

  get wordCount(): number {
    return this.#wordIds.size;
  }

  /** Marks the subjects of the literals of rows `[from, to)` as documents to be. */
  markSubjects(from: number, to: number): void {
    const { second, third } = this.#pos;
    const terms = this.#store.terms;
    const subjectDocs = this.#subjectDocs;
    for (let row = from; row < to; row++)
      if (terms.isLiteral(second[row] as number)) subjectDocs[third[row] as number] = DOC_UNSEEN;
  }

  /**
   * Numbers the marked subjects `[from, to)` as documents, in subject order (the order the graph
   * first named them), so that ties rank as they were ingested. Blank nodes are not documents.
   */
  acquireDocs(from: number, to: number): void {
    const subjectDocs = this.#subjectDocs;
    const terms = this.#store.terms;
    for (let s = from; s < to; s++) {
      if (subjectDocs[s] !== DOC_UNSEEN) continue;
      const iri = terms.term(s);
      if (iri.startsWith('_:')) {
        subjectDocs[s] = NOT_A_DOC;
        continue;
      }
      // Recorded in `subjectDocs` (the holder's `docOf`) by the registry.
      const doc = this.#registry.acquire(this.holder, s);
      this.#localDocs.push(doc);
      this.#localSubjects.push(s);
    }
  }

  startPredicate(): void {
    this.#literal = 0;
    this.#distinct = 0;
  }

  /** Indexes rows `[from, to)` of predicate `p` (by index). */
  indexRows(p: number, from: number, to: number): void {
    const { second, third } = this.#pos;
    const subjectDocs = this.#subjectDocs;
    const entries = this.#entries;
    for (let row = from; row < to; row++) {
      const o = second[row] as number;
      // The rows of one literal are adjacent: its words are found once.
      if (o !== this.#literal) this.#readLiteral(o);
      const distinct = this.#distinct;
      if (distinct === 0) continue;
      const doc = subjectDocs[third[row] as number] as number;
      if (doc < 0) continue;
      const length = this.#length;
      this.#lengthSums[p] = (this.#lengthSums[p] as number) + length;
      this.#literalCounts[p] = (this.#literalCounts[p] as number) + 1;
      for (let k = 0; k < distinct; k++)
        entries.push7(
          this.#literalWords[k] as number,
          doc,
          p,
          this.#literalTfs[k] as number,
          length,
          this.#lang,
          o,
        );
    }
  }

  #readLiteral(o: number): void {
    this.#literal = o;
    this.#distinct = 0;
    const terms = this.#store.terms;
    if (!terms.isLiteral(o)) return;
    const parts = literalParts(terms.term(o));
    const tokens = foldWords(parts.lex);
    this.#length = tokens.length;
    let language = this.#languageIds.get(parts.lang);
    if (language === undefined) {
      language = this.#languageIds.size;
      this.#languageIds.set(parts.lang, language);
    }
    this.#lang = language;
    if (tokens.length > 1) tokens.sort();
    const wordIds = this.#wordIds;
    let distinct = 0;
    for (let i = 0; i < tokens.length; ) {
      let word = tokens[i] as string;
      let j = i + 1;
      while (j < tokens.length && tokens[j] === word) j++;
      let wordId = wordIds.get(word);
      if (wordId === undefined) {
        wordId = wordIds.size;
        if (word.length >= SLICE_MIN_LENGTH) word = Buffer.from(word, 'utf8').toString('utf8');
        wordIds.set(word, wordId);
      }
      this.#literalWords[distinct] = wordId;
      this.#literalTfs[distinct] = j - i;
      distinct++;
      i = j;
    }
    this.#distinct = distinct;
  }

  /** Groups the entries by word, and within a word by document (for look-ups in long lists). */
  group(): void {
    const entries = this.#entries;
    const capacity = this.#registry.capacity;
    this.#grouped = entries.groupBy(this.wordCount, 0, entries.groupBy(capacity, 1).order);
    const n = entries.length;
    this.#postings = {
      starts: Uint32Array.from(this.#grouped.starts),
      frequencies: new Uint32Array(this.wordCount),
      maxImpacts: new Float32Array(this.wordCount),
      docs: new Int32Array(n),
      impacts: new Float32Array(n),
      // Two bytes per entry unless a source has more than 65,536 distinct language tags.
      langs: this.#languageIds.size <= 0x10000 ? new Uint16Array(n) : new Int32Array(n),
      literals: new Uint32Array(n),
      lengths: new Uint16Array(n),
      predicates: new Uint16Array(n),
    };
    this.#seen = new Uint8Array(capacity);
  }

  /** Fills the postings of words `[from, to)` (by id), with their BM25 impacts. */
  postWords(from: number, to: number): void {
    const postings = this.#postings!;
    const { order, starts } = this.#grouped!;
    const entries = this.#entries;
    const seen = this.#seen!;
    const weights = this.weights;
    const { docs, impacts, langs, literals, lengths, predicates } = postings;
    const averages = Float64Array.from(weights, (_, p) =>
      (this.#literalCounts[p] as number) > 0
        ? (this.#lengthSums[p] as number) / (this.#literalCounts[p] as number)
        : 1,
    );
    for (let id = from; id < to; id++) {
      const first = starts[id] as number;
      const end = starts[id + 1] as number;
      let distinct = 0;
      let max = 0;
      for (let k = first; k < end; k++) {
        const e = order[k] as number;
        const doc = entries.get(e, 1);
        const p = entries.get(e, 2);
        const tf = entries.get(e, 3);
        const length = entries.get(e, 4);
        const norm = 1 - B + (B * length) / (averages[p] as number);
        const impact = ((weights[p] as number) * (tf * (K1 + 1))) / (tf + K1 * norm);
        docs[k] = doc;
        langs[k] = entries.get(e, 5);
        literals[k] = entries.get(e, 6);
        lengths[k] = Math.min(length, 0xffff);
        predicates[k] = p;
        impacts[k] = impact;
        if (impact > max) max = impact;
        if (seen[doc] === 0) {
          seen[doc] = 1;
          distinct++;
        }
      }
      for (let k = first; k < end; k++) seen[docs[k] as number] = 0;
      postings.frequencies[id] = distinct;
      postings.maxImpacts[id] = Math.fround(max);
    }
  }

  /** The words (those with entries), postings, documents and languages built. */
  finish(): {
    words: Map<string, number>;
    postings: Postings;
    docIds: Int32Array;
    docSubjects: Uint32Array;
    languages: string[];
  } {
    const postings = this.#postings!;
    const words = this.#wordIds;
    // A word seen only in literals of blank nodes has no entries: it is not a word of the source.
    for (const [word, id] of words) if (postings.frequencies[id] === 0) words.delete(word);
    return {
      words,
      postings,
      docIds: Int32Array.from(this.#localDocs),
      docSubjects: Uint32Array.from(this.#localSubjects),
      languages: [...this.#languageIds.keys()],
    };
  }

  /** Documents per `rdf:type` or `skos:inScheme` IRI (`iri`), for the subjects that are documents. */
  facet(iri: string): Map<string, Int32Array> {
    return facetOf(this.#store, this.#subjectDocs, iri);
  }
}

/** Fixed-width integer rows in one growable typed array. */
class EntryTable {
  readonly #width: number;
  #data: Int32Array;
  length = 0;

  constructor(width: number) {
    this.#width = width;
    this.#data = new Int32Array(width * 4096);
  }

  #grow(): void {
    const next = new Int32Array(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }

  push7(a: number, b: number, c: number, d: number, e: number, f: number, g: number): void {
    if ((this.length + 1) * this.#width > this.#data.length) this.#grow();
    const at = this.length++ * this.#width;
    this.#data[at] = a;
    this.#data[at + 1] = b;
    this.#data[at + 2] = c;
    this.#data[at + 3] = d;
    this.#data[at + 4] = e;
    this.#data[at + 5] = f;
    this.#data[at + 6] = g;
  }

  get(row: number, column: number): number {
    return this.#data[row * this.#width + column]!;
  }

  /**
   * Rows grouped by `column` (a stable counting sort of the rows in `input` order, all rows in
   * their own order when absent): `order[starts[k]..starts[k+1]]`.
   */
  groupBy(keys: number, column = 0, input?: Int32Array): { order: Int32Array; starts: Int32Array } {
    const starts = new Int32Array(keys + 1);
    for (let r = 0; r < this.length; r++) starts[this.get(r, column) + 1]! += 1;
    for (let k = 0; k < keys; k++) starts[k + 1]! += starts[k]!;
    const cursor = starts.slice(0, keys);
    const order = new Int32Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const r = input ? input[i]! : i;
      order[cursor[this.get(r, column)]!++] = r;
    }
    return { order, starts };
  }
}
