import { type WordPlan, wholeLabelBonus } from './query-plan';
import { gallop } from './sorted-search';
import type { SourceSearchIndex } from './source-search-index';
import { TopDocs } from './top-docs';

/** The current document of a list that has ended. */
const END = 0x7fffffff;

/** A query to rank with pruning (no filters), as {@link SearchIndex} plans it. */
export interface PrunedQuery {
  /** One per query word that reaches any list, in query order. */
  plans: readonly WordPlan[];
  /** All the folded query words (`n`), in order. */
  words: readonly string[];
  sources: readonly SourceSearchIndex[];
  /** The summed IDFs of the words (the whole-label bonus scales with it). */
  idfSum: number;
  /** How many of the best to keep (offset + limit of the page). */
  k: number;
  /**
   * How much work the ranking may spend before it gives up (undefined), when pruning does not
   * pay: the caller scans the lists then. A document costs 2, each walked list at it 1 + the
   * depth of the heap of walked lists, each lookup 2 (measured: a unit costs about as much as a
   * scanned entry, see bench/search-pruning.ts).
   */
  budget: number;
}

/**
 * The `k` best documents of a query, best first (ties: smaller document id first), scored
 * exactly as the full scan of every list scores them, but without scoring most documents:
 * documents are visited in id order over all lists at once (document at a time), and MaxScore
 * pruning stops walking the lists of the words that can no longer lift a document into the `k`
 * best. The words are ordered by their largest possible score (`scale × maxImpact`); once the
 * `k`-th best score reaches what a document found only in the first `j` of them can score, those
 * `j` are only looked up (galloping) for the documents of the others, never walked. Documents
 * come in id order, so a later one with an equal score never enters, and the bound may equal
 * the threshold.
 *
 * Every score is computed with the very floating-point operations of the full scan (best entry
 * per word, summed in word order, plus the whole-label bonus, times (m/n)²), and each bound with
 * the same operations on the words' largest impacts, so that a bound is never below a score it
 * stands for (rounding is monotone).
 *
 * Undefined when it would cost more than `budget` list visits: walking many lists at once costs
 * several times a scan per entry, so a query whose words stay essential (scores that vary, a
 * short prefix reaching many long lists) is better scanned.
 */
export function rankPruned(query: PrunedQuery): { docs: number[]; scores: number[] } | undefined {
  const { plans, words, sources, idfSum, k, budget } = query;
  const n = words.length;
  const planCount = plans.length;
  if (k <= 0 || planCount === 0) return { docs: [], scores: [] };

  // One cursor per list (a word of one source), grouped by plan.
  const listDocs: Int32Array[] = [];
  const listImpacts: Float32Array[] = [];
  const listScale: number[] = [];
  const listEnd: number[] = [];
  const position: number[] = [];
  const planLists: number[][] = [];
  const maxScores = new Float64Array(planCount);
  for (let p = 0; p < planCount; p++) {
    const { expansions, scales } = plans[p]!;
    const lists: number[] = [];
    for (let e = 0; e < expansions.length; e++) {
      const { source, word } = expansions[e]!;
      const { starts, docs, impacts, maxImpacts } = source.postings;
      lists.push(listDocs.length);
      listDocs.push(docs);
      listImpacts.push(impacts);
      listScale.push(scales[e]!);
      position.push(starts[word]!);
      listEnd.push(starts[word + 1]!);
      const most = scales[e]! * maxImpacts[word]!;
      if (most > maxScores[p]!) maxScores[p] = most;
    }
    planLists.push(lists);
  }

  const bonus = new WholeLabelBonus(words, sources, idfSum);
  // bounds[j]: the most a document found only in the j plans of smallest maxScores can score.
  const order = Array.from({ length: planCount }, (_, p) => p).sort(
    (a, b) => maxScores[a]! - maxScores[b]! || a - b,
  );
  const bounds = new Float64Array(planCount + 1);
  const inBound = new Uint8Array(planCount);
  for (let j = 1; j <= planCount; j++) {
    inBound[order[j - 1]!] = 1;
    let most = 0;
    for (let p = 0; p < planCount; p++) if (inBound[p] === 1) most += maxScores[p]!;
    // Only a document that has every word can hold a literal equal to the query.
    if (j === planCount) most += bonus.most;
    bounds[j] = most * (j / n) * (j / n);
  }

  const planOf = new Int32Array(listDocs.length);
  for (let p = 0; p < planCount; p++) for (const list of planLists[p]!) planOf[list] = p;
  const planBest = new Float64Array(planCount);
  const planHit = new Uint8Array(planCount);
  const atDoc = new Int32Array(listDocs.length);
  /** Moves a list past `doc`, keeping the best score of its entries of `doc` for its plan. */
  const readEntries = (list: number, doc: number): void => {
    const docs = listDocs[list]!;
    const end = listEnd[list]!;
    let at = position[list]!;
    if (at < end && docs[at]! < doc) at = gallop(docs, at, end, doc);
    if (at < end && docs[at] === doc) {
      const p = planOf[list]!;
      const impacts = listImpacts[list]!;
      const scale = listScale[list]!;
      let best = planBest[p]!;
      for (; at < end && docs[at] === doc; at++) {
        const score = scale * impacts[at]!;
        if (score > best) best = score;
      }
      planBest[p] = best;
      planHit[p] = 1;
    }
    position[list] = at;
  };
  const top = new TopDocs(k);
  const walked = new ListHeap(listDocs, position, listEnd);
  let skipped = 0; // plans order[0..skipped) are looked up only
  walked.reset(order, planLists, skipped);
  let lookups = 0; // lists looked up per document: those of the skipped plans
  let work = 0;
  let visitCost = 1 + Math.log2(walked.size + 1);
  for (;;) {
    const doc = walked.minDoc();
    if (doc === END) break;
    // The walked lists at `doc`, then the looked-up ones: each plan's best entry of `doc`.
    let taken = 0;
    while (walked.minDoc() === doc) atDoc[taken++] = walked.pop();
    for (let t = 0; t < taken; t++) readEntries(atDoc[t]!, doc);
    for (let i = 0; i < skipped; i++)
      for (const list of planLists[order[i]!]!) readEntries(list, doc);
    for (let t = 0; t < taken; t++) walked.push(atDoc[t]!);
    work += 2 + taken * visitCost + 2 * lookups;
    if (work > budget) return undefined;
    let total = 0;
    let matched = 0;
    for (let p = 0; p < planCount; p++) {
      if (planHit[p] === 0) continue;
      total += planBest[p]!;
      matched++;
      planHit[p] = 0;
      planBest[p] = 0;
    }
    const extra = bonus.of(doc);
    if (extra > 0) {
      total += extra;
      matched = n;
    }
    const m = Math.min(matched, n);
    total = total * (m / n) * (m / n);
    if (!top.offer(doc, total)) continue;
    const threshold = top.threshold();
    let grew = false;
    while (skipped < planCount && bounds[skipped + 1]! <= threshold) {
      skipped++;
      grew = true;
    }
    if (skipped === planCount) break;
    if (grew) {
      walked.reset(order, planLists, skipped);
      lookups = 0;
      for (let i = 0; i < skipped; i++) lookups += planLists[order[i]!]!.length;
      visitCost = 1 + Math.log2(walked.size + 1);
    }
  }
  return top.sorted();
}

/**
 * The whole-label bonus as the full scan gives it: per source (in order) whose words include
 * every query word, the entries of the rarest one whose literal has as many words as the query
 * and equals it (checked against the dictionary); the first such entry of a document counts.
 */
class WholeLabelBonus {
  /** The largest bonus any document can get (0 when none can). */
  readonly most: number;
  readonly #lists: Array<{ source: SourceSearchIndex; at: number; end: number }> = [];
  readonly #n: number;
  readonly #phrase: string;
  readonly #idfSum: number;

  constructor(words: readonly string[], sources: readonly SourceSearchIndex[], idfSum: number) {
    this.#n = words.length;
    this.#phrase = words.join(' ');
    this.#idfSum = idfSum;
    let most = 0;
    for (const source of sources) {
      const { starts } = source.postings;
      const rarest = source.rarestWord(words);
      if (rarest < 0 || (source.lengthBits(rarest) & (1 << Math.min(this.#n, 31))) === 0) continue;
      this.#lists.push({ source, at: starts[rarest]!, end: starts[rarest + 1]! });
      for (const weight of source.weights) {
        const bonus = wholeLabelBonus(weight, this.#idfSum);
        if (bonus > most) most = bonus;
      }
    }
    this.most = most;
  }

  /** The bonus of `doc` (0 when none); documents must be asked in increasing order. */
  of(doc: number): number {
    const n = this.#n;
    for (const list of this.#lists) {
      const { docs, predicates } = list.source.postings;
      let at = gallop(docs, list.at, list.end, doc);
      list.at = at;
      for (; at < list.end && docs[at] === doc; at++) {
        if (!list.source.isWholeLabel(at, n, this.#phrase)) continue;
        return wholeLabelBonus(list.source.weights[predicates[at]!]!, this.#idfSum);
      }
    }
    return 0;
  }
}

/**
 * The lists that are walked, in a binary heap by their current document, so that the next
 * document of all of them is found in log time however many lists a query reaches.
 */
class ListHeap {
  readonly #docs: Int32Array[];
  readonly #position: number[];
  readonly #end: number[];
  readonly #heap: Int32Array;
  /** The current document of each list when it was last placed in the heap. */
  readonly #key: Int32Array;
  #size = 0;

  constructor(docs: Int32Array[], position: number[], end: number[]) {
    this.#docs = docs;
    this.#position = position;
    this.#end = end;
    this.#heap = new Int32Array(docs.length);
    this.#key = new Int32Array(docs.length);
  }

  #current(list: number): number {
    const at = this.#position[list]!;
    return at < this.#end[list]! ? this.#docs[list]![at]! : END;
  }

  /** Walks the lists of the plans `order[from..]` (the others are only looked up). */
  reset(order: readonly number[], planLists: readonly number[][], from: number): void {
    this.#size = 0;
    for (let i = from; i < order.length; i++)
      for (const list of planLists[order[i]!]!) {
        const doc = this.#current(list);
        if (doc === END) continue;
        this.#key[list] = doc;
        this.#heap[this.#size++] = list;
      }
    for (let i = (this.#size >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  /** How many lists are walked (not ended). */
  get size(): number {
    return this.#size;
  }

  minDoc(): number {
    return this.#size === 0 ? END : this.#key[this.#heap[0]!]!;
  }

  /** Takes the list of the smallest current document out of the heap. */
  pop(): number {
    const list = this.#heap[0]!;
    this.#heap[0] = this.#heap[--this.#size]!;
    if (this.#size > 0) this.#down(0);
    return list;
  }

  /** Puts a list back by its current document (not when it has ended). */
  push(list: number): void {
    const doc = this.#current(list);
    if (doc === END) return;
    const heap = this.#heap;
    const key = this.#key;
    key[list] = doc;
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (key[heap[parent]!]! <= doc) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = list;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const key = this.#key;
    for (;;) {
      const l = i * 2 + 1;
      const r = l + 1;
      let least = i;
      if (l < this.#size && key[heap[l]!]! < key[heap[least]!]!) least = l;
      if (r < this.#size && key[heap[r]!]! < key[heap[least]!]!) least = r;
      if (least === i) return;
      const swap = heap[i]!;
      heap[i] = heap[least]!;
      heap[least] = swap;
      i = least;
    }
  }
}
