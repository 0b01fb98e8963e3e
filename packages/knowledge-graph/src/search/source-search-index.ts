import { foldedWords, TypoIndex } from '@dcg/text-match';
import type { Quad } from 'n3';
import type { DocRegistry } from './doc-registry';

/** A literal predicate that search matches, with its ranking weight. */
export interface SearchPredicate {
  iri: string;
  weight: number;
}

/**
 * Postings of one word in one source, as parallel typed arrays (one entry per literal that holds
 * the word): document id, and the entry's precomputed BM25 impact (predicate weight × saturated
 * term frequency with length normalisation), so that a query multiplies by the IDF only.
 */
export interface Postings {
  docs: Int32Array;
  impacts: Float32Array;
  /** Language of each entry's literal: an index into {@link SourceSearchIndex.languages}. */
  langs: Uint16Array | Int32Array;
  /** Number of distinct documents (for IDF). */
  docFrequency: number;
}

/** Documents whose whole literal equals a folded phrase, with the literal's predicate weight. */
export interface PhrasePostings {
  docs: Int32Array;
  weights: Float32Array;
  /** Language of each literal: an index into {@link SourceSearchIndex.languages}. */
  langs: Uint16Array | Int32Array;
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SKOS_IN_SCHEME = 'http://www.w3.org/2004/02/skos/core#inScheme';

// BM25 parameters. b is softer than the usual 0.75: labels are short, and a long label that
// holds the word as written must still beat a short one that only completes a prefix.
const K1 = 1.2;
const B = 0.5;

/**
 * The search index of one source's graph. It is immutable once built: replacing a source builds
 * a new one and swaps it in, so the index follows ingestion per source without a full rebuild.
 *
 * @example
 * const index = SourceSearchIndex.build(quads, predicates, registry);
 * index.postings.get('water')?.docFrequency;
 */
/** Units of work (quads, words, phrases) between two steps of {@link SourceSearchIndex.buildInSteps}. */
const BUILD_SLICE = 2_000;

export class SourceSearchIndex {
  /** Distinct documents of this source. */
  readonly docCount: number;
  readonly postings: Map<string, Postings>;
  readonly phrases: Map<string, PhrasePostings>;
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
  readonly #docIds: Int32Array;
  #typos: TypoIndex | undefined;
  readonly #registry: DocRegistry;
  #released = false;

  private constructor(init: {
    registry: DocRegistry;
    docIds: Int32Array;
    postings: Map<string, Postings>;
    phrases: Map<string, PhrasePostings>;
    languages: string[];
    types: Map<string, Int32Array>;
    schemes: Map<string, Int32Array>;
  }) {
    this.languages = init.languages;
    this.types = init.types;
    this.schemes = init.schemes;
    this.#registry = init.registry;
    this.#docIds = init.docIds;
    this.docCount = init.docIds.length;
    this.postings = init.postings;
    this.phrases = init.phrases;
    this.sortedTerms = [...init.postings.keys()].sort();
  }

  /**
   * Indexes the literals of `quads` whose predicate is one of `predicates` and whose subject is
   * an IRI (search answers full IRIs only; blank nodes are not addressable).
   */
  static build(
    quads: Iterable<Quad>,
    predicates: readonly SearchPredicate[],
    registry: DocRegistry,
  ): SourceSearchIndex {
    const steps = SourceSearchIndex.buildInSteps(quads, predicates, registry);
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
    quads: Iterable<Quad>,
    predicates: readonly SearchPredicate[],
    registry: DocRegistry,
  ): Generator<void, SourceSearchIndex, void> {
    let work = 0;
    const predicateIndex = new Map<string, number>();
    predicates.forEach((p, i) => {
      predicateIndex.set(p.iri, i);
    });
    const lengthSums = new Float64Array(predicates.length);
    const literalCounts = new Float64Array(predicates.length);
    const localDocs = new Map<string, number>();
    // Postings are collected as flat entries in growable typed arrays and grouped by word at the
    // end (a counting sort): a few large allocations instead of one small array per word, which
    // keeps the garbage collector out of the way on large graphs.
    const words = new EntryTable(6); // word id, doc, predicate, tf, literal length, language
    const phrases = new EntryTable(4); // phrase id, doc, predicate, language
    const wordIds = new Map<string, number>();
    const phraseIds = new Map<string, number>();
    const languageIds = new Map<string, number>([['', 0]]);
    // rdf:type and skos:inScheme statements: subject → class or scheme IRIs.
    const typeStatements = new Map<string, string[]>();
    const schemeStatements = new Map<string, string[]>();

    for (const quad of quads) {
      if (++work % BUILD_SLICE === 0) yield;
      if (quad.subject.termType !== 'NamedNode') continue;
      if (quad.object.termType === 'NamedNode') {
        const facet =
          quad.predicate.value === RDF_TYPE
            ? typeStatements
            : quad.predicate.value === SKOS_IN_SCHEME
              ? schemeStatements
              : undefined;
        if (!facet) continue;
        const list = facet.get(quad.subject.value);
        if (list) list.push(quad.object.value);
        else facet.set(quad.subject.value, [quad.object.value]);
        continue;
      }
      if (quad.object.termType !== 'Literal') continue;
      const p = predicateIndex.get(quad.predicate.value);
      if (p === undefined) continue;
      const tokens = foldedWords(quad.object.value);
      if (tokens.length === 0) continue;
      const language = quad.object.language;
      let lang = languageIds.get(language);
      if (lang === undefined) {
        lang = languageIds.size;
        languageIds.set(language, lang);
      }
      let doc = localDocs.get(quad.subject.value);
      if (doc === undefined) {
        doc = registry.acquire(quad.subject.value);
        localDocs.set(quad.subject.value, doc);
      }
      const length = tokens.length;
      lengthSums[p]! += length;
      literalCounts[p]! += 1;
      const phrase = tokens.join(' ');
      let phraseId = phraseIds.get(phrase);
      if (phraseId === undefined) {
        phraseId = phraseIds.size;
        phraseIds.set(phrase, phraseId);
      }
      phrases.push4(phraseId, doc, p, lang);
      tokens.sort();
      for (let i = 0; i < tokens.length; ) {
        const word = tokens[i]!;
        let j = i + 1;
        while (j < tokens.length && tokens[j] === word) j++;
        let wordId = wordIds.get(word);
        if (wordId === undefined) {
          wordId = wordIds.size;
          wordIds.set(word, wordId);
        }
        words.push6(wordId, doc, p, j - i, length, lang);
        i = j;
      }
    }

    const averages = predicates.map((_, p) =>
      literalCounts[p]! > 0 ? lengthSums[p]! / literalCounts[p]! : 1,
    );
    const weights = predicates.map((p) => p.weight);

    const wordOrder = words.groupBy(wordIds.size);
    const allDocs = new Int32Array(words.length);
    const allImpacts = new Float32Array(words.length);
    // Two bytes per entry unless a source has more than 65,536 distinct language tags.
    const LangArray = languageIds.size <= 0x10000 ? Uint16Array : Int32Array;
    const allLangs = new LangArray(words.length);
    const seen = new Uint8Array(registry.capacity);
    const postings = new Map<string, Postings>();
    for (const [word, id] of wordIds) {
      if (++work % BUILD_SLICE === 0) yield;
      const from = wordOrder.starts[id]!;
      const to = wordOrder.starts[id + 1]!;
      let distinct = 0;
      for (let k = from; k < to; k++) {
        const e = wordOrder.order[k]!;
        const doc = words.get(e, 1);
        const tf = words.get(e, 3);
        const p = words.get(e, 2);
        const norm = 1 - B + (B * words.get(e, 4)) / averages[p]!;
        allDocs[k] = doc;
        allLangs[k] = words.get(e, 5);
        allImpacts[k] = (weights[p]! * (tf * (K1 + 1))) / (tf + K1 * norm);
        if (seen[doc] === 0) {
          seen[doc] = 1;
          distinct++;
        }
      }
      for (let k = from; k < to; k++) seen[allDocs[k]!] = 0;
      postings.set(word, {
        docs: allDocs.subarray(from, to),
        impacts: allImpacts.subarray(from, to),
        langs: allLangs.subarray(from, to),
        docFrequency: distinct,
      });
    }

    const phraseOrder = phrases.groupBy(phraseIds.size);
    const phraseDocs = new Int32Array(phrases.length);
    const phraseWeights = new Float32Array(phrases.length);
    const phraseLangs = new LangArray(phrases.length);
    const phraseMap = new Map<string, PhrasePostings>();
    for (const [phrase, id] of phraseIds) {
      if (++work % BUILD_SLICE === 0) yield;
      const from = phraseOrder.starts[id]!;
      const to = phraseOrder.starts[id + 1]!;
      for (let k = from; k < to; k++) {
        const e = phraseOrder.order[k]!;
        phraseDocs[k] = phrases.get(e, 1);
        phraseWeights[k] = weights[phrases.get(e, 2)]!;
        phraseLangs[k] = phrases.get(e, 3);
      }
      phraseMap.set(phrase, {
        docs: phraseDocs.subarray(from, to),
        weights: phraseWeights.subarray(from, to),
        langs: phraseLangs.subarray(from, to),
      });
    }
    return new SourceSearchIndex({
      registry,
      docIds: Int32Array.from(localDocs.values()),
      postings,
      phrases: phraseMap,
      languages: [...languageIds.keys()],
      types: docsPerFacet(typeStatements, localDocs),
      schemes: docsPerFacet(schemeStatements, localDocs),
    });
  }

  /** Words of this source that start with `prefix` (excluding `prefix` itself). */
  termsWithPrefix(prefix: string): string[] {
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < terms.length; i++) {
      const term = terms[i]!;
      if (!term.startsWith(prefix)) break;
      if (term !== prefix) out.push(term);
    }
    return out;
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

  push4(a: number, b: number, c: number, d: number): void {
    if ((this.length + 1) * this.#width > this.#data.length) this.#grow();
    const at = this.length++ * this.#width;
    this.#data[at] = a;
    this.#data[at + 1] = b;
    this.#data[at + 2] = c;
    this.#data[at + 3] = d;
  }

  push6(a: number, b: number, c: number, d: number, e: number, f: number): void {
    if ((this.length + 1) * this.#width > this.#data.length) this.#grow();
    const at = this.length++ * this.#width;
    this.#data[at] = a;
    this.#data[at + 1] = b;
    this.#data[at + 2] = c;
    this.#data[at + 3] = d;
    this.#data[at + 4] = e;
    this.#data[at + 5] = f;
  }

  get(row: number, column: number): number {
    return this.#data[row * this.#width + column]!;
  }

  /** Rows grouped by their first column (stable counting sort): `order[starts[k]..starts[k+1]]`. */
  groupBy(keys: number): { order: Int32Array; starts: Int32Array } {
    const starts = new Int32Array(keys + 1);
    for (let r = 0; r < this.length; r++) starts[this.get(r, 0) + 1]! += 1;
    for (let k = 0; k < keys; k++) starts[k + 1]! += starts[k]!;
    const cursor = starts.slice(0, keys);
    const order = new Int32Array(this.length);
    for (let r = 0; r < this.length; r++) order[cursor[this.get(r, 0)]!++] = r;
    return { order, starts };
  }
}

/** The distinct strings made by deleting one character of `word`. */

/** Document ids per class or scheme IRI, for the subjects that are searchable documents. */
function docsPerFacet(
  statements: Map<string, string[]>,
  localDocs: Map<string, number>,
): Map<string, Int32Array> {
  const grouped = new Map<string, number[]>();
  for (const [subject, values] of statements) {
    const doc = localDocs.get(subject);
    if (doc === undefined) continue;
    for (const value of new Set(values)) {
      const list = grouped.get(value);
      if (list) list.push(doc);
      else grouped.set(value, [doc]);
    }
  }
  return new Map([...grouped].map(([value, docs]) => [value, Int32Array.from(docs)]));
}
