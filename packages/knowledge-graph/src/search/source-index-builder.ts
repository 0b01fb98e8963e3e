import type { TripleIndex } from '../store/triple-index';
import type { TripleStore } from '../store/triple-store';
import type { DocHolder, DocRegistry } from './doc-registry';
import { foldWords } from './fold-words';
import type { Postings, SearchPredicate } from './postings';

const QUOTE = 34;
// BM25 parameters. b is softer than the usual 0.75: labels are short, and a long label that
// holds the word as written must still beat a short one that only completes a prefix.
const K1 = 1.2;
const B = 0.5;
/** Below this length V8 copies substrings; a longer word kept as a key is copied flat. */
const SLICE_MIN_LENGTH = 13;

const DOC_UNSEEN = -1;
/** A subject term that is no document (in a `docOf` array). */
export const NOT_A_DOC = -2;

/** The lexical form and language tag of a literal in the engine id form (`"lex"@lang`). */
export function literalParts(id: string): { lex: string; lang: string } {
  const end = id.lastIndexOf('"');
  const lex = id.slice(1, end);
  return { lex, lang: id.charCodeAt(end + 1) === 64 ? id.slice(end + 2) : '' };
}

/** The rows of predicate `iri` in the POS index of `store` (empty when it has none). */
function predicateRows(store: TripleStore, iri: string): [number, number] {
  const pos = store.pos;
  const p = store.termId(iri);
  if (p === 0 || p >= pos.offsets.length - 1) return [0, 0];
  return [pos.offsets[p] as number, pos.offsets[p + 1] as number];
}

/**
 * Documents per `rdf:type` or `skos:inScheme` IRI (`iri`) of `store`, for the subjects that are
 * documents (`subjectDocs`: the document of each subject term, negative when none).
 */
export function facetOf(
  store: TripleStore,
  subjectDocs: Int32Array,
  iri: string,
): Map<string, Int32Array> {
  const grouped = new Map<string, Int32Array>();
  const [from, to] = predicateRows(store, iri);
  const { second, third } = store.pos;
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
export class SourceIndexBuilder {
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
    this.predicateRows = predicates.map((p) => predicateRows(store, p.iri));
    this.weights = Float64Array.from(predicates, (p) => p.weight);
    this.#lengthSums = new Float64Array(predicates.length);
    this.#literalCounts = new Float64Array(predicates.length);
    this.#subjectDocs = new Int32Array(store.terms.size + 1).fill(NOT_A_DOC);
    this.holder = registry.hold(store, this.#subjectDocs);
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
