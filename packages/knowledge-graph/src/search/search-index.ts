import { foldedWords } from '@dcg/text-match';
import type { Quad } from 'n3';
import type { TripleStore } from '../store/triple-store';
import { TripleStoreBuilder } from '../store/triple-store-builder';
import { countMatches } from './count-matches';
import { DocRegistry } from './doc-registry';
import type { Postings, SearchPredicate } from './postings';
import { type Expansion, type WordPlan, wholeLabelBonus } from './query-plan';
import { rankPruned } from './rank-pruned';
import type { SearchIndexData } from './search-index-data';
import { SourceSearchIndex } from './source-search-index';
import { TopDocs } from './top-docs';

/** One page of search hits: IRIs best first, and how many matched in all. */
export interface SearchPage {
  results: string[];
  totalResults: number;
}

// How much a word counts depending on how it matched: exact > prefix > typo.
const MATCH_WEIGHT = { exact: 1, prefix: 0.4, oneTypo: 0.2, twoTypos: 0.12 } as const;
// Short prefixes can expand to thousands of words; the most frequent ones are kept.
const MAX_EXPANSIONS = { prefix: 48, typo: 24 } as const;
// Ranking with pruning gives up after `base` units of work (see `rankPruned`'s budget), plus one
// unit per `entriesPerUnit` entries of the query's lists, and the lists are scanned: a unit of
// work costs about a scanned entry (see bench/search-pruning.ts), so a query that pruning does not
// help costs about 1.3 scans, one it helps a small part of one.
const PRUNE_BUDGET = { base: 4_096, entriesPerUnit: 16 } as const;
// Pages up to this deep of a one-word query are ranked in one pass over its list (see
// `rankOneList`); deeper ones take the general path.
const ONE_LIST_MAX_K = 1024;

/**
 * What a search asks for besides its words: one page, and optional filters. `lang` keeps the
 * literals whose language tag matches one of the ranges as SPARQL's `langMatches` does (`en`
 * matches `en` and `en-US`, `*` any tagged literal; case-insensitive; untagged literals never
 * match a range). `types` keeps documents with one of the `rdf:type`s, `schemes` documents
 * `skos:inScheme` one of the schemes; given together, both must hold.
 */
export interface IndexSearchOptions {
  offset: number;
  limit: number;
  lang?: readonly string[] | undefined;
  types?: readonly string[] | undefined;
  schemes?: readonly string[] | undefined;
}

/** `langMatches(tag, range)` of SPARQL 1.1 (RFC 4647 basic filtering). */
export function langMatches(tag: string, range: string): boolean {
  if (tag === '') return false;
  if (range === '*') return true;
  const t = tag.toLowerCase();
  const r = range.toLowerCase();
  return t === r || (t.startsWith(r) && t.charCodeAt(r.length) === 45); // '-'
}

/**
 * Scores the entries `[from, to)` of a word's postings: each document keeps its best score of
 * the word in `wordScore`, and is listed in `wordTouched` when first scored. Gives the new count
 * of `wordTouched`. (A function of its own: small and monomorphic, it is optimised well.)
 */
function scanList(
  postings: Postings,
  from: number,
  to: number,
  scale: number,
  langsOk: Uint8Array | undefined,
  allowed: Uint8Array | undefined,
  wordScore: Float64Array,
  wordTouched: Int32Array,
  count: number,
): number {
  const { docs, impacts, langs } = postings;
  for (let i = from; i < to; i++) {
    const doc = docs[i]!;
    if (langsOk !== undefined && langsOk[langs[i]!] === 0) continue;
    if (allowed !== undefined && allowed[doc] === 0) continue;
    const score = scale * impacts[i]!;
    const before = wordScore[doc]!;
    if (before === 0) wordTouched[count++] = doc;
    if (score > before) wordScore[doc] = score;
  }
  return count;
}

/**
 * Adds one word's scores (`wordScore` of the `count` documents of `wordTouched`, then cleared) to
 * the documents' totals, counting the word as matched; lists documents first touched in
 * `touched`. Gives the new count of `touched`.
 */
function addWord(
  wordTouched: Int32Array,
  count: number,
  wordScore: Float64Array,
  total: Float64Array,
  matched: Uint16Array,
  touched: Int32Array,
  touchedCount: number,
): number {
  for (let i = 0; i < count; i++) {
    const doc = wordTouched[i]!;
    if (matched[doc] === 0) touched[touchedCount++] = doc;
    total[doc]! += wordScore[doc]!;
    matched[doc]! += 1;
    wordScore[doc] = 0;
  }
  return touchedCount;
}

/**
 * The whole ranking of a one-word query that matches one list (no completions, no typos, no
 * filters), in one sequential pass: the entries of a document are adjacent (in document order),
 * so each document's score is complete when the next begins, and only the `k` best are kept.
 * The score is computed with the very operations of the general path (best entry, plus the
 * bonus of its first one-word literal), so pages are identical to it. The pass stops once the
 * `k`-th best score reaches `bound`, the most any document of the list can score: documents come
 * in id order, so no later one can enter. Gives how many were kept; `topDocs`/`topScores` hold
 * the best first (ties: smaller document first).
 */
function rankOneList(
  postings: Postings,
  from: number,
  to: number,
  scale: number,
  idfSum: number,
  weights: Float64Array,
  k: number,
  bound: number,
  topDocs: Int32Array,
  topScores: Float64Array,
): number {
  const { docs, impacts, lengths, predicates } = postings;
  let kept = 0;
  let i = from;
  while (i < to && !(kept === k && topScores[k - 1]! >= bound)) {
    const doc = docs[i]!;
    let best = 0;
    let bonus = -1; // the predicate of the doc's first one-word literal
    for (; i < to && docs[i] === doc; i++) {
      const score = scale * impacts[i]!;
      if (score > best) best = score;
      if (bonus < 0 && lengths[i] === 1) bonus = predicates[i]!;
    }
    let total = 0;
    total += best;
    if (bonus >= 0) total += wholeLabelBonus(weights[bonus]!, idfSum);
    total = total * 1 * 1; // (m / n)² with every word matched, as the general path scales
    if (kept === k && !(total > topScores[k - 1]!)) continue;
    // Documents come in id order: an equal score ranks after those kept.
    let lo = 0;
    let hi = kept;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (topScores[mid]! >= total) lo = mid + 1;
      else hi = mid;
    }
    const last = kept === k ? k - 1 : kept++;
    topDocs.copyWithin(lo + 1, lo, last);
    topScores.copyWithin(lo + 1, lo, last);
    topDocs[lo] = doc;
    topScores[lo] = total;
  }
  return kept;
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
  #wordTouched = new Int32Array(0);
  #touched = new Int32Array(0);
  readonly #topDocs = new Int32Array(ONE_LIST_MAX_K);
  readonly #topScores = new Float64Array(ONE_LIST_MAX_K);
  readonly #exhaustive: boolean;
  /** Pruning needs every entry to score above 0 (a document's score grows with its entries). */
  readonly #positiveWeights: boolean;

  /**
   * `exhaustive`: every query scans every list and scores every matching document (the
   * reference that the one-pass and pruned rankings are tested against).
   */
  constructor(predicates: readonly SearchPredicate[], options: { exhaustive?: boolean } = {}) {
    this.#predicates = predicates;
    this.#exhaustive = options.exhaustive ?? false;
    this.#positiveWeights = predicates.every((p) => p.weight > 0);
  }

  /** The predicates that are searchable, with their weights. */
  get predicates(): readonly SearchPredicate[] {
    return this.#predicates;
  }

  /** Indexes `quads` as the whole content of `sourceId`, replacing what it had. */
  replaceSource(sourceId: string, quads: Iterable<Quad>): void {
    const builder = new TripleStoreBuilder();
    for (const quad of quads) builder.addQuad(quad);
    this.swapSource(sourceId, this.buildSource(builder.build()));
  }

  /**
   * Builds the index of a source's store without making it visible (see
   * {@link SearchIndex.swapSource}); the index reads its literals from the store's dictionary.
   */
  buildSource(store: TripleStore): SourceSearchIndex {
    return SourceSearchIndex.build(store, this.#predicates, this.#registry);
  }

  /**
   * {@link SearchIndex.buildSource} in steps: yields between slices of work, returns the index.
   */
  buildSourceInSteps(store: TripleStore): Generator<void, SourceSearchIndex, void> {
    return SourceSearchIndex.buildInSteps(store, this.#predicates, this.#registry);
  }

  /**
   * The index of a source's store from its persisted form (without making it visible), or
   * undefined when that was built for other searchable predicates (build it then).
   */
  restoreSource(store: TripleStore, data: SearchIndexData): SourceSearchIndex | undefined {
    return SourceSearchIndex.restore(store, this.#predicates, this.#registry, data);
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

  /** The index of one source (replacing another source leaves it as it is: same object). */
  sourceIndex(sourceId: string): SourceSearchIndex | undefined {
    return this.#sources.get(sourceId);
  }

  /** Number of searchable documents per source. */
  stats(): Record<string, number> {
    return Object.fromEntries([...this.#sources].map(([id, s]) => [id, s.docCount]));
  }

  /** Ranks the documents matching `term` and returns one page of them. */
  search(term: string, page: IndexSearchOptions): SearchPage {
    const words = foldedWords(term);
    const sources = [...this.#sources.values()];
    if (words.length === 0 || sources.length === 0) return { results: [], totalResults: 0 };
    this.#ensureScratch();
    const allowed = this.#allowedDocs(sources, page);
    const ranges = page.lang && page.lang.length > 0 ? page.lang : undefined;
    const langOk = new Map<SourceSearchIndex, Uint8Array>();
    if (ranges) {
      for (const s of sources) {
        langOk.set(
          s,
          Uint8Array.from(s.languages, (tag) => (ranges.some((r) => langMatches(tag, r)) ? 1 : 0)),
        );
      }
    }
    const wordScore = this.#wordScore;
    const total = this.#total;
    const matched = this.#matched;
    const wordTouched = this.#wordTouched;
    const touched = this.#touched;

    let docCount = 0;
    for (const s of sources) docCount += s.docCount;
    const idfOf = (df: number) => Math.log(1 + (docCount - df + 0.5) / (df + 0.5));

    // Each word's expansions, scaled by IDF. Expanded words (prefix, typo) share the IDF of
    // everything the typed word reaches, so a rare completion never outweighs the common word
    // typed in full.
    let idfSum = 0;
    const plans: WordPlan[] = [];
    for (let w = 0; w < words.length; w++) {
      const expansions = this.#expand(words[w]!, w === words.length - 1, sources);
      if (expansions.length === 0) continue;
      let dfExact = 0;
      let dfAll = 0;
      for (const { source, word, factor } of expansions) {
        const df = source.docFrequency(word);
        dfAll += df;
        if (factor === MATCH_WEIGHT.exact) dfExact += df;
      }
      const idfExact = idfOf(dfExact);
      const idfExpanded = idfOf(Math.min(dfAll, docCount));
      idfSum += dfExact > 0 ? idfExact : idfExpanded;
      let entries = 0;
      const scales: number[] = [];
      for (const { source, word, factor } of expansions) {
        scales.push(factor * (factor === MATCH_WEIGHT.exact ? idfExact : idfExpanded));
        entries += source.postings.starts[word + 1]! - source.postings.starts[word]!;
      }
      plans.push({ expansions, scales, entries });
    }
    const n = words.length;
    const k = page.offset + page.limit;
    const only = plans.length === 1 && n === 1 ? plans[0]!.expansions : [];
    if (
      !this.#exhaustive &&
      only.length === 1 &&
      only[0]!.factor === MATCH_WEIGHT.exact &&
      k <= ONE_LIST_MAX_K &&
      !allowed &&
      !ranges
    ) {
      const { source, word } = only[0]!;
      const { starts, maxImpacts } = source.postings;
      const scale = plans[0]!.scales[0]!;
      // The most a document can score: the word's largest impact, and the bonus of a one-word
      // literal when the word has one (the same operations as a document's score).
      let bound = 0;
      bound += scale * maxImpacts[word]!;
      if ((source.lengthBits(word) & 2) !== 0)
        bound += wholeLabelBonus(Math.max(...source.weights), idfSum);
      bound = bound * 1 * 1;
      const kept = rankOneList(
        source.postings,
        starts[word]!,
        starts[word + 1]!,
        scale,
        idfSum,
        source.weights,
        k,
        bound,
        this.#topDocs,
        this.#topScores,
      );
      const results: string[] = [];
      for (let i = page.offset; i < kept; i++) results.push(this.#registry.iri(this.#topDocs[i]!));
      return { results, totalResults: source.docFrequency(word) };
    }
    if (!this.#exhaustive && !allowed && !ranges && this.#positiveWeights) {
      // Without filters every entry counts: the best are ranked with pruning, and the matches
      // are counted from the lists' document frequencies (unless pruning gives up).
      let entries = 0;
      for (const plan of plans) entries += plan.entries;
      const budget = PRUNE_BUDGET.base + entries / PRUNE_BUDGET.entriesPerUnit;
      const ranked = rankPruned({ plans, words, sources, idfSum, k, budget });
      if (ranked) {
        const lists = plans.flatMap((plan) => plan.expansions);
        return {
          results: ranked.docs.slice(page.offset).map((doc) => this.#registry.iri(doc)),
          totalResults: countMatches(lists, this.#matched),
        };
      }
    }
    // Filtered, exhaustive or not worth pruning: every list is scanned, every match scored.
    let touchedCount = 0;
    for (const plan of plans) {
      let wordTouchedCount = 0;
      for (let e = 0; e < plan.expansions.length; e++) {
        const { source, word } = plan.expansions[e]!;
        const { starts } = source.postings;
        wordTouchedCount = scanList(
          source.postings,
          starts[word]!,
          starts[word + 1]!,
          plan.scales[e]!,
          langOk.get(source),
          allowed,
          wordScore,
          wordTouched,
          wordTouchedCount,
        );
      }
      touchedCount = addWord(
        wordTouched,
        wordTouchedCount,
        wordScore,
        total,
        matched,
        touched,
        touchedCount,
      );
    }
    const best = this.#finish(sources, words, langOk, touchedCount, idfSum, k);
    for (let i = 0; i < touchedCount; i++) total[touched[i]!] = 0;
    return {
      results: best.slice(page.offset).map((doc) => this.#registry.iri(doc)),
      totalResults: touchedCount,
    };
  }

  /**
   * Adds the phrase bonus, scales by the words matched and ranks the `k` best of the touched
   * documents.
   */
  #finish(
    sources: SourceSearchIndex[],
    words: string[],
    langOk: Map<SourceSearchIndex, Uint8Array>,
    touchedCount: number,
    idfSum: number,
    k: number,
  ): number[] {
    const total = this.#total;
    const matched = this.#matched;
    const touched = this.#touched;
    const n = words.length;
    const phrase = words.join(' ');
    for (const s of sources) {
      const rarest = s.rarestWord(words);
      if (rarest < 0) continue;
      const { starts, docs, langs, predicates } = s.postings;
      const langsOk = langOk.get(s);
      const end = starts[rarest + 1]!;
      for (let i = starts[rarest]!; i < end; i++) {
        const doc = docs[i]!;
        if (langsOk && langsOk[langs[i]!] === 0) continue;
        if (matched[doc] === 0 || matched[doc]! > n) continue;
        if (!s.isWholeLabel(i, n, phrase)) continue;
        total[doc]! += wholeLabelBonus(s.weights[predicates[i]!]!, idfSum);
        // Counted once per document even when several literals equal the phrase.
        matched[doc] = n + 1;
      }
    }

    // Every query word counts: a document matching fewer words is scaled down quadratically.
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      const m = Math.min(matched[doc]!, n);
      total[doc] = total[doc]! * (m / n) * (m / n);
      matched[doc] = 0;
    }
    const top = new TopDocs(k);
    for (let i = 0; i < touchedCount; i++) top.offer(touched[i]!, total[touched[i]!]!);
    return top.sorted().docs;
  }

  /** Documents the type and scheme filters keep (1), or undefined when there is no filter. */
  #allowedDocs(sources: SourceSearchIndex[], options: IndexSearchOptions): Uint8Array | undefined {
    const facets: Array<[readonly string[], 'types' | 'schemes']> = [];
    if (options.types && options.types.length > 0) facets.push([options.types, 'types']);
    if (options.schemes && options.schemes.length > 0) facets.push([options.schemes, 'schemes']);
    if (facets.length === 0) return undefined;
    const counts = new Uint8Array(this.#registry.capacity);
    for (const [values, facet] of facets) {
      const hit = new Uint8Array(this.#registry.capacity);
      for (const s of sources) {
        for (const value of values) {
          const docs = s[facet].get(value);
          if (docs) for (const doc of docs) hit[doc] = 1;
        }
      }
      for (let doc = 0; doc < hit.length; doc++) counts[doc]! += hit[doc]!;
    }
    const needed = facets.length;
    for (let doc = 0; doc < counts.length; doc++) counts[doc] = counts[doc] === needed ? 1 : 0;
    return counts;
  }

  #expand(word: string, isLast: boolean, sources: SourceSearchIndex[]): Expansion[] {
    const expansions: Expansion[] = [];
    let exact = false;
    for (const source of sources) {
      const id = source.wordId(word);
      if (id >= 0) {
        expansions.push({ source, word: id, factor: MATCH_WEIGHT.exact });
        exact = true;
      }
    }
    let prefixed = false;
    if (isLast) {
      for (const source of sources) {
        const kept = source.mostFrequentWithPrefix(word, MAX_EXPANSIONS.prefix);
        if (kept.length === 0) continue;
        prefixed = true;
        for (const term of kept)
          expansions.push({ source, word: source.wordId(term), factor: MATCH_WEIGHT.prefix });
      }
    }
    // Typos are looked for only when nothing matched as written: it keeps queries fast and
    // never lets a typo outrank a real match.
    if (!exact && !prefixed && word.length >= 4) {
      let found = 0;
      for (const source of sources) {
        for (const term of source.typos.near(word, 1, MAX_EXPANSIONS.typo)) {
          expansions.push({ source, word: source.wordId(term), factor: MATCH_WEIGHT.oneTypo });
          found++;
        }
      }
      // Two typos only in long words, and only when one typo finds nothing (a vocabulary scan).
      if (found === 0 && word.length >= 8) {
        for (const source of sources) {
          for (const term of source.typos.near(word, 2, MAX_EXPANSIONS.typo)) {
            expansions.push({ source, word: source.wordId(term), factor: MATCH_WEIGHT.twoTypos });
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
    this.#wordTouched = new Int32Array(size);
    this.#touched = new Int32Array(size);
  }
}
