import type { Quad } from 'n3';
import type { DocRegistry } from './doc-registry';
import { tokenize } from './fold-text';

/** A literal predicate that search matches, with its ranking weight. */
export interface SearchPredicate {
  iri: string;
  weight: number;
}

/**
 * Postings of one word in one source, as parallel typed arrays (one entry per literal that holds
 * the word): document id, predicate index, term frequency, literal length in words.
 */
export interface Postings {
  docs: Int32Array;
  predicates: Uint16Array;
  frequencies: Uint16Array;
  lengths: Uint16Array;
  /** Number of distinct documents (for IDF). */
  docFrequency: number;
}

/** Documents whose whole literal equals a folded phrase. */
export interface PhrasePostings {
  docs: Int32Array;
  predicates: Uint16Array;
}

/**
 * The search index of one source's graph. It is immutable once built: replacing a source builds
 * a new one and swaps it in, so the index follows ingestion per source without a full rebuild.
 *
 * @example
 * const index = SourceSearchIndex.build(quads, predicates, registry);
 * index.postings.get('water')?.docFrequency;
 */
export class SourceSearchIndex {
  /** Distinct documents of this source. */
  readonly docCount: number;
  /** Sum of literal lengths per predicate index, and number of literals (for average length). */
  readonly lengthSums: Float64Array;
  readonly literalCounts: Float64Array;
  readonly postings: Map<string, Postings>;
  readonly phrases: Map<string, PhrasePostings>;
  /** Every word, sorted, for prefix ranges. */
  readonly sortedTerms: string[];
  /** Words grouped by length, for typo scans. */
  readonly termsByLength: Map<number, string[]>;
  readonly #docIds: Int32Array;
  readonly #registry: DocRegistry;
  #released = false;

  private constructor(init: {
    registry: DocRegistry;
    docIds: Int32Array;
    lengthSums: Float64Array;
    literalCounts: Float64Array;
    postings: Map<string, Postings>;
    phrases: Map<string, PhrasePostings>;
  }) {
    this.#registry = init.registry;
    this.#docIds = init.docIds;
    this.docCount = init.docIds.length;
    this.lengthSums = init.lengthSums;
    this.literalCounts = init.literalCounts;
    this.postings = init.postings;
    this.phrases = init.phrases;
    this.sortedTerms = [...init.postings.keys()].sort();
    const byLength = new Map<number, string[]>();
    for (const term of this.sortedTerms) {
      const list = byLength.get(term.length);
      if (list) list.push(term);
      else byLength.set(term.length, [term]);
    }
    this.termsByLength = byLength;
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
    const predicateIndex = new Map<string, number>();
    predicates.forEach((p, i) => {
      predicateIndex.set(p.iri, i);
    });
    const lengthSums = new Float64Array(predicates.length);
    const literalCounts = new Float64Array(predicates.length);
    const localDocs = new Map<string, number>();
    const raw = new Map<string, number[]>();
    const rawPhrases = new Map<string, number[]>();

    for (const quad of quads) {
      if (quad.subject.termType !== 'NamedNode' || quad.object.termType !== 'Literal') continue;
      const p = predicateIndex.get(quad.predicate.value);
      if (p === undefined) continue;
      const words = tokenize(quad.object.value);
      if (words.length === 0) continue;
      let doc = localDocs.get(quad.subject.value);
      if (doc === undefined) {
        doc = registry.acquire(quad.subject.value);
        localDocs.set(quad.subject.value, doc);
      }
      const length = Math.min(words.length, 65_535);
      lengthSums[p] = (lengthSums[p] ?? 0) + length;
      literalCounts[p] = (literalCounts[p] ?? 0) + 1;
      const counts = new Map<string, number>();
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const [word, tf] of counts) {
        const entry = raw.get(word);
        const values = [doc, p, Math.min(tf, 65_535), length];
        if (entry) entry.push(...values);
        else raw.set(word, values);
      }
      const phrase = words.join(' ');
      const phraseEntry = rawPhrases.get(phrase);
      if (phraseEntry) phraseEntry.push(doc, p);
      else rawPhrases.set(phrase, [doc, p]);
    }

    const postings = new Map<string, Postings>();
    for (const [word, flat] of raw) {
      const n = flat.length / 4;
      const docs = new Int32Array(n);
      const preds = new Uint16Array(n);
      const freqs = new Uint16Array(n);
      const lengths = new Uint16Array(n);
      const distinct = new Set<number>();
      for (let i = 0; i < n; i++) {
        docs[i] = flat[i * 4]!;
        preds[i] = flat[i * 4 + 1]!;
        freqs[i] = flat[i * 4 + 2]!;
        lengths[i] = flat[i * 4 + 3]!;
        distinct.add(docs[i]!);
      }
      postings.set(word, {
        docs,
        predicates: preds,
        frequencies: freqs,
        lengths,
        docFrequency: distinct.size,
      });
    }
    const phrases = new Map<string, PhrasePostings>();
    for (const [phrase, flat] of rawPhrases) {
      const n = flat.length / 2;
      const docs = new Int32Array(n);
      const preds = new Uint16Array(n);
      for (let i = 0; i < n; i++) {
        docs[i] = flat[i * 2]!;
        preds[i] = flat[i * 2 + 1]!;
      }
      phrases.set(phrase, { docs, predicates: preds });
    }
    return new SourceSearchIndex({
      registry,
      docIds: Int32Array.from(localDocs.values()),
      lengthSums,
      literalCounts,
      postings,
      phrases,
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

  /** Gives this index's document ids back to the registry; call once, after swapping it out. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const id of this.#docIds) this.#registry.release(id);
  }
}
