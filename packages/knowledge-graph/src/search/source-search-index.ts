import { TypoIndex } from '@dcg/text-match';
import type { TripleStore } from '../store/triple-store';
import type { DocRegistry } from './doc-registry';
import { foldWords } from './fold-words';

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
  #typos: TypoIndex | undefined;
  readonly #registry: DocRegistry;
  #released = false;

  private constructor(init: {
    store: TripleStore;
    registry: DocRegistry;
    docIds: Int32Array;
    words: Map<string, number>;
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
    this.#docIds = init.docIds;
    this.docCount = init.docIds.length;
    this.words = init.words;
    this.postings = init.postings;
    this.weights = init.weights;
    this.sortedTerms = [...init.words.keys()].sort();
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
    let work = 0;
    const pos = store.pos;
    const rowsOf = (iri: string): [number, number] => {
      const p = store.termId(iri);
      if (p === 0 || p >= pos.offsets.length - 1) return [0, 0];
      return [pos.offsets[p] as number, pos.offsets[p + 1] as number];
    };
    const predicateRows = predicates.map((p) => rowsOf(p.iri));
    // Documents are numbered in subject order (the order the graph first named them), so that
    // ties rank as they were ingested: a first pass marks the subjects of indexed literals.
    const DOC_UNSEEN = -1;
    const NOT_A_DOC = -2;
    const subjectDocs = new Int32Array(store.terms.size + 1).fill(NOT_A_DOC);
    for (const [from, to] of predicateRows) {
      for (let row = from; row < to; row++) {
        if (++work % (BUILD_SLICE * 16) === 0) yield;
        if (!store.terms.isLiteral(pos.second[row] as number)) continue;
        subjectDocs[pos.third[row] as number] = DOC_UNSEEN;
      }
    }
    const localDocs: number[] = [];
    for (let s = 1; s < subjectDocs.length; s++) {
      if (subjectDocs[s] !== DOC_UNSEEN) continue;
      if (++work % BUILD_SLICE === 0) yield;
      const iri = store.terms.term(s);
      if (iri.startsWith('_:')) {
        subjectDocs[s] = NOT_A_DOC;
        continue;
      }
      const doc = registry.acquire(iri);
      subjectDocs[s] = doc;
      localDocs.push(doc);
    }

    const lengthSums = new Float64Array(predicates.length);
    const literalCounts = new Float64Array(predicates.length);
    // Postings are collected as flat entries in growable typed arrays and grouped by word at the
    // end (a counting sort): a few large allocations instead of one small array per word, which
    // keeps the garbage collector out of the way on large graphs.
    const words = new EntryTable(7); // word id, doc, predicate, tf, literal length, language, literal
    const wordIds = new Map<string, number>();
    const languageIds = new Map<string, number>([['', 0]]);
    const wordIdsOfLiteral: number[] = [];
    const tfOfLiteral: number[] = [];
    for (let p = 0; p < predicates.length; p++) {
      const [from, to] = predicateRows[p] as [number, number];
      let literal = 0;
      let length = 0;
      let lang = 0;
      let distinct = 0;
      for (let row = from; row < to; row++) {
        if (++work % BUILD_SLICE === 0) yield;
        const o = pos.second[row] as number;
        if (o !== literal) {
          // The rows of one literal are adjacent: its words are found once.
          literal = o;
          distinct = 0;
          if (!store.terms.isLiteral(o)) continue;
          const parts = literalParts(store.terms.term(o));
          const tokens = foldWords(parts.lex);
          length = tokens.length;
          let language = languageIds.get(parts.lang);
          if (language === undefined) {
            language = languageIds.size;
            languageIds.set(parts.lang, language);
          }
          lang = language;
          tokens.sort();
          for (let i = 0; i < tokens.length; ) {
            let word = tokens[i] as string;
            let j = i + 1;
            while (j < tokens.length && tokens[j] === word) j++;
            let wordId = wordIds.get(word);
            if (wordId === undefined) {
              wordId = wordIds.size;
              if (word.length >= SLICE_MIN_LENGTH)
                word = Buffer.from(word, 'utf8').toString('utf8');
              wordIds.set(word, wordId);
            }
            wordIdsOfLiteral[distinct] = wordId;
            tfOfLiteral[distinct] = j - i;
            distinct++;
            i = j;
          }
        }
        if (distinct === 0) continue;
        const doc = subjectDocs[pos.third[row] as number] as number;
        if (doc < 0) continue;
        lengthSums[p] = (lengthSums[p] as number) + length;
        literalCounts[p] = (literalCounts[p] as number) + 1;
        for (let k = 0; k < distinct; k++)
          words.push7(
            wordIdsOfLiteral[k] as number,
            doc,
            p,
            tfOfLiteral[k] as number,
            length,
            lang,
            literal,
          );
      }
    }

    const averages = predicates.map((_, p) =>
      (literalCounts[p] as number) > 0
        ? (lengthSums[p] as number) / (literalCounts[p] as number)
        : 1,
    );
    const weights = Float64Array.from(predicates, (p) => p.weight);

    // By word, and within a word by document: a query can look a document up in a long list.
    const wordOrder = words.groupBy(wordIds.size, 0, words.groupBy(registry.capacity, 1).order);
    const n = words.length;
    const allDocs = new Int32Array(n);
    const allImpacts = new Float32Array(n);
    // Two bytes per entry unless a source has more than 65,536 distinct language tags.
    const LangArray = languageIds.size <= 0x10000 ? Uint16Array : Int32Array;
    const allLangs = new LangArray(n);
    const allLiterals = new Uint32Array(n);
    const allLengths = new Uint16Array(n);
    const allPredicates = new Uint16Array(n);
    const seen = new Uint8Array(registry.capacity);
    const frequencies = new Uint32Array(wordIds.size);
    const maxImpacts = new Float32Array(wordIds.size);
    for (let id = 0; id < wordIds.size; id++) {
      if (++work % BUILD_SLICE === 0) yield;
      const from = wordOrder.starts[id] as number;
      const to = wordOrder.starts[id + 1] as number;
      let distinct = 0;
      for (let k = from; k < to; k++) {
        const e = wordOrder.order[k] as number;
        const doc = words.get(e, 1);
        const p = words.get(e, 2);
        const tf = words.get(e, 3);
        const length = words.get(e, 4);
        const norm = 1 - B + (B * length) / (averages[p] as number);
        allDocs[k] = doc;
        allLangs[k] = words.get(e, 5);
        allLiterals[k] = words.get(e, 6);
        allLengths[k] = Math.min(length, 0xffff);
        allPredicates[k] = p;
        allImpacts[k] = ((weights[p] as number) * (tf * (K1 + 1))) / (tf + K1 * norm);
        if (seen[doc] === 0) {
          seen[doc] = 1;
          distinct++;
        }
      }
      let max = 0;
      for (let k = from; k < to; k++) {
        seen[allDocs[k] as number] = 0;
        if ((allImpacts[k] as number) > max) max = allImpacts[k] as number;
      }
      frequencies[id] = distinct;
      maxImpacts[id] = max;
    }
    // A word seen only in literals of blank nodes has no entries: it is not a word of the source.
    for (const [word, id] of wordIds) if (frequencies[id] === 0) wordIds.delete(word);
    const postings: Postings = {
      starts: Uint32Array.from(wordOrder.starts),
      frequencies,
      maxImpacts,
      docs: allDocs,
      impacts: allImpacts,
      langs: allLangs,
      literals: allLiterals,
      lengths: allLengths,
      predicates: allPredicates,
    };

    const facet = (iri: string): Map<string, Int32Array> => {
      const [from, to] = rowsOf(iri);
      const grouped = new Map<string, Int32Array>();
      let row = from;
      while (row < to) {
        const o = pos.second[row] as number;
        let end = row + 1;
        while (end < to && pos.second[end] === o) end++;
        const value = store.terms.term(o);
        if (value.charCodeAt(0) !== QUOTE && !value.startsWith('_:')) {
          const docs: number[] = [];
          for (let r = row; r < end; r++) {
            const doc = subjectDocs[pos.third[r] as number] as number;
            if (doc >= 0) docs.push(doc);
          }
          if (docs.length > 0) grouped.set(value, Int32Array.from(docs));
        }
        row = end;
      }
      return grouped;
    };
    return new SourceSearchIndex({
      store,
      registry,
      docIds: Int32Array.from(localDocs),
      words: wordIds,
      postings,
      weights,
      languages: [...languageIds.keys()],
      types: facet(RDF_TYPE),
      schemes: facet(SKOS_IN_SCHEME),
    });
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

  /** The range of {@link sortedTerms} that start with `prefix`. */
  #prefixRange(prefix: string): [number, number] {
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < terms.length && terms[end]!.startsWith(prefix)) end++;
    return [lo, end];
  }

  /** Words of this source that start with `prefix` (excluding `prefix` itself). */
  termsWithPrefix(prefix: string): string[] {
    const [from, to] = this.#prefixRange(prefix);
    return this.sortedTerms.slice(from, to).filter((term) => term !== prefix);
  }

  /**
   * The `max` words that start with `prefix` (excluding `prefix` itself) in the most documents,
   * most first, ties in word order: a selection over a typed array of document frequencies, so
   * that a one-letter prefix with 100,000 completions costs no sort and no array of them.
   */
  mostFrequentWithPrefix(prefix: string, max: number): string[] {
    const [from, to] = this.#prefixRange(prefix);
    const terms = this.sortedTerms;
    const frequencies = this.#sortedFrequencies;
    const best: number[] = []; // indexes into sortedTerms, most frequent first
    for (let i = from; i < to; i++) {
      const df = frequencies[i]!;
      if (best.length === max && df <= frequencies[best[max - 1]!]!) continue;
      if (terms[i] === prefix) continue;
      let at = best.length === max ? max - 1 : best.length;
      while (at > 0 && frequencies[best[at - 1]!]! < df) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = i;
    }
    return best.map((i) => terms[i]!);
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
    for (const id of this.#docIds) this.#registry.release(id);
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
