import type { Quad } from 'n3';
import { DocRegistry } from './doc-registry';
import { boundedEditDistance } from './edit-distance';
import { tokenize } from './fold-text';
import { type SearchPredicate, SourceSearchIndex } from './source-search-index';

/** One page of search hits: IRIs best first, and how many matched in all. */
export interface SearchPage {
  results: string[];
  totalResults: number;
}

// BM25 parameters (the usual ones).
const K1 = 1.2;
// Softer length normalisation than the usual 0.75: labels are short, and a long label that
// holds the word as written must still beat a short one that only completes a prefix.
const B = 0.5;
// How much a word counts depending on how it matched: exact > prefix > typo.
const EXACT = 1;
const PREFIX = 0.4;
const FUZZY_1 = 0.2;
const FUZZY_2 = 0.12;
// A literal that equals the whole query (e.g. the label "Water" for "water") gets this many
// times the summed word scores on top, so an exact label beats a label that merely contains it.
const PHRASE_BONUS = 1.5;
// Short prefixes can expand to thousands of words; the most frequent ones are kept.
const MAX_PREFIX_EXPANSIONS = 48;
const MAX_FUZZY_EXPANSIONS = 24;

interface Expansion {
  source: SourceSearchIndex;
  term: string;
  factor: number;
}

/**
 * The search index over every source: BM25-style scoring with a weight per predicate, exact word
 * matches above prefix matches (last word only, for typing) above typo matches, every query word
 * counting, and a bonus for a literal equal to the whole query. Text is folded (case,
 * diacritics, punctuation). Sources are indexed separately, so replacing one re-indexes only it.
 *
 * @example
 * const index = new SearchIndex([{ iri: 'http://www.w3.org/2004/02/skos/core#prefLabel', weight: 3 }]);
 * index.replaceSource('demo', store.getQuads(null, null, null, null));
 * index.search('water qual', { offset: 0, limit: 10 }); // { results: [...], totalResults }
 */
export class SearchIndex {
  readonly #predicates: readonly SearchPredicate[];
  readonly #registry = new DocRegistry();
  readonly #sources = new Map<string, SourceSearchIndex>();
  // Scratch buffers reused between queries (search is synchronous, so never shared).
  #wordScore = new Float64Array(0);
  #total = new Float64Array(0);
  #matched = new Uint16Array(0);

  constructor(predicates: readonly SearchPredicate[]) {
    this.#predicates = predicates;
  }

  /** The predicates that are searchable, with their weights. */
  get predicates(): readonly SearchPredicate[] {
    return this.#predicates;
  }

  /** Indexes `quads` as the whole content of `sourceId`, replacing what it had. */
  replaceSource(sourceId: string, quads: Iterable<Quad>): void {
    this.swapSource(sourceId, this.buildSource(quads));
  }

  /** Builds a source index without making it visible (see {@link SearchIndex.swapSource}). */
  buildSource(quads: Iterable<Quad>): SourceSearchIndex {
    return SourceSearchIndex.build(quads, this.#predicates, this.#registry);
  }

  /** Makes a built index the one of `sourceId` (or removes it when `index` is undefined). */
  swapSource(sourceId: string, index: SourceSearchIndex | undefined): void {
    const old = this.#sources.get(sourceId);
    if (index) this.#sources.set(sourceId, index);
    else this.#sources.delete(sourceId);
    old?.release();
  }

  /** Removes a source from the index. */
  removeSource(sourceId: string): void {
    this.swapSource(sourceId, undefined);
  }

  /** Number of searchable documents per source. */
  stats(): Record<string, number> {
    return Object.fromEntries([...this.#sources].map(([id, s]) => [id, s.docCount]));
  }

  /** Ranks the documents matching `term` and returns one page of them. */
  search(term: string, page: { offset: number; limit: number }): SearchPage {
    const words = tokenize(term);
    const sources = [...this.#sources.values()];
    if (words.length === 0 || sources.length === 0) return { results: [], totalResults: 0 };
    this.#ensureScratch();
    const wordScore = this.#wordScore;
    const total = this.#total;
    const matched = this.#matched;

    let docCount = 0;
    const avgLength = new Float64Array(this.#predicates.length);
    const literalCount = new Float64Array(this.#predicates.length);
    for (const s of sources) {
      docCount += s.docCount;
      for (let p = 0; p < avgLength.length; p++) {
        avgLength[p]! += s.lengthSums[p]!;
        literalCount[p]! += s.literalCounts[p]!;
      }
    }
    for (let p = 0; p < avgLength.length; p++) {
      avgLength[p] = literalCount[p]! > 0 ? avgLength[p]! / literalCount[p]! : 1;
    }
    const weights = this.#predicates.map((p) => p.weight);

    const touched: number[] = [];
    let idfSum = 0;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      const expansions = this.#expand(word, w === words.length - 1, sources);
      if (expansions.length === 0) continue;
      const wordTouched: number[] = [];
      // Expanded words (prefix, typo) share the IDF of everything the typed word reaches, so a
      // rare completion never outweighs the common word typed in full.
      let dfExact = 0;
      let dfAll = 0;
      for (const { source, term, factor } of expansions) {
        const df = source.postings.get(term)!.docFrequency;
        dfAll += df;
        if (factor === EXACT) dfExact += df;
      }
      const idfOf = (df: number) => Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
      const idfExact = idfOf(dfExact);
      const idfExpanded = idfOf(Math.min(dfAll, docCount));
      const bestIdf = dfExact > 0 ? idfExact : idfExpanded;
      for (const { source, term, factor } of expansions) {
        const idf = factor === EXACT ? idfExact : idfExpanded;
        const postings = source.postings.get(term)!;
        const { docs, predicates, frequencies, lengths } = postings;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i]!;
          const p = predicates[i]!;
          const tf = frequencies[i]!;
          const norm = 1 - B + (B * lengths[i]!) / avgLength[p]!;
          const score = factor * idf * weights[p]! * ((tf * (K1 + 1)) / (tf + K1 * norm));
          const before = wordScore[doc]!;
          if (before === 0) wordTouched.push(doc);
          if (score > before) wordScore[doc] = score;
        }
      }
      idfSum += bestIdf;
      for (const doc of wordTouched) {
        if (matched[doc] === 0) touched.push(doc);
        total[doc]! += wordScore[doc]!;
        matched[doc]! += 1;
        wordScore[doc] = 0;
      }
    }

    const phrase = words.join(' ');
    for (const s of sources) {
      const hits = s.phrases.get(phrase);
      if (!hits) continue;
      for (let i = 0; i < hits.docs.length; i++) {
        const doc = hits.docs[i]!;
        if (matched[doc] === 0) continue;
        total[doc]! += PHRASE_BONUS * weights[hits.predicates[i]!]! * Math.max(idfSum, 1);
        // Counted once per document even when several literals equal the phrase.
        matched[doc] = words.length + 1;
      }
    }

    // Every query word counts: a document matching fewer words is scaled down quadratically.
    const n = words.length;
    const scores = new Float64Array(touched.length);
    for (let i = 0; i < touched.length; i++) {
      const doc = touched[i]!;
      const m = Math.min(matched[doc]!, n);
      scores[i] = total[doc]! * (m / n) * (m / n);
      total[doc] = 0;
      matched[doc] = 0;
    }
    const order = topK(touched, scores, page.offset + page.limit, (doc) => this.#registry.iri(doc));
    return {
      results: order.slice(page.offset).map((doc) => this.#registry.iri(doc)),
      totalResults: touched.length,
    };
  }

  #expand(word: string, isLast: boolean, sources: SourceSearchIndex[]): Expansion[] {
    const expansions: Expansion[] = [];
    let exact = false;
    for (const source of sources) {
      if (source.postings.has(word)) {
        expansions.push({ source, term: word, factor: EXACT });
        exact = true;
      }
    }
    let prefixed = false;
    if (isLast) {
      for (const source of sources) {
        const candidates = source.termsWithPrefix(word);
        if (candidates.length === 0) continue;
        prefixed = true;
        const kept =
          candidates.length <= MAX_PREFIX_EXPANSIONS
            ? candidates
            : candidates
                .map((t) => ({ t, df: source.postings.get(t)!.docFrequency }))
                .sort((a, b) => b.df - a.df)
                .slice(0, MAX_PREFIX_EXPANSIONS)
                .map((x) => x.t);
        for (const term of kept) expansions.push({ source, term, factor: PREFIX });
      }
    }
    // Typos are looked for only when nothing matched as written: it keeps queries fast and
    // never lets a typo outrank a real match.
    if (!exact && !prefixed && word.length >= 4) {
      const max = word.length >= 8 ? 2 : 1;
      for (const source of sources) {
        let found = 0;
        for (
          let len = word.length - max;
          len <= word.length + max && found < MAX_FUZZY_EXPANSIONS;
          len++
        ) {
          for (const term of source.termsByLength.get(len) ?? []) {
            const d = boundedEditDistance(word, term, max);
            if (d > max) continue;
            expansions.push({ source, term, factor: d === 1 ? FUZZY_1 : FUZZY_2 });
            if (++found >= MAX_FUZZY_EXPANSIONS) break;
          }
        }
      }
    }
    return expansions;
  }

  #ensureScratch(): void {
    const capacity = this.#registry.capacity;
    if (this.#wordScore.length >= capacity) return;
    const size = Math.max(capacity, this.#wordScore.length * 2, 1024);
    this.#wordScore = new Float64Array(size);
    this.#total = new Float64Array(size);
    this.#matched = new Uint16Array(size);
  }
}

/** The `k` best documents by score (ties by IRI), without sorting every candidate. */
function topK(
  docs: number[],
  scores: Float64Array,
  k: number,
  iriOf: (doc: number) => string,
): number[] {
  const better = (a: number, b: number): boolean => {
    const sa = scores[a]!;
    const sb = scores[b]!;
    if (sa !== sb) return sa > sb;
    return iriOf(docs[a]!) < iriOf(docs[b]!);
  };
  const indexes: number[] = [];
  if (k >= docs.length / 4) {
    for (let i = 0; i < docs.length; i++) indexes.push(i);
    indexes.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    return indexes.slice(0, k).map((i) => docs[i]!);
  }
  // A min-heap (worst on top) of the k best seen so far.
  const heap: number[] = [];
  const worse = (a: number, b: number) => better(b, a);
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = i * 2 + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < docs.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      up(heap.length - 1);
    } else if (k > 0 && better(i, heap[0]!)) {
      heap[0] = i;
      down(0);
    }
  }
  heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  return heap.map((i) => docs[i]!);
}
