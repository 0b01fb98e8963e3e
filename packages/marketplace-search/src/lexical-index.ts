import { foldedWords, TypoIndex } from '@dcg/text-match';
import { EnvironmentIds, inEnvironment } from './environment-ids';
import type { InstanceDocument } from './instance-text';
import { analyzeWords, tokenize } from './text-tokens';
import { TopK } from './top-k';

/**
 * One term a search looks for: a word of the query (`word`), a correction of a typo in it
 * (`typo`: no indexed term is spelled like it, this one is an edit or two away) or a synonym
 * from a thesaurus (`synonym`). `typed` is the query word it came from; `weight` scales its
 * BM25 score (1 for the query's own words).
 *
 * @example
 * const t: QueryTerm = { term: 'order', typed: 'ordres', via: 'typo', weight: 0.5 };
 */
export interface QueryTerm {
  term: string;
  typed: string;
  via: 'word' | 'typo' | 'synonym';
  weight: number;
}

/**
 * What a query looks for, and the query spelled as the index spells it when a word was corrected
 * (`didYouMean`, e.g. `orders` for `ordres`).
 *
 * @example
 * const plan = index.plan('ordres'); // plan.didYouMean === 'orders'
 */
export interface QueryPlan {
  terms: QueryTerm[];
  didYouMean: string | undefined;
}

/**
 * Where query terms besides the query's own words come from (see {@link LexicalIndex.plan}).
 *
 * @example
 * const options: QueryPlanOptions = { synonyms: (word) => (word === 'wages' ? ['pay', 'salary'] : []) };
 */
export interface QueryPlanOptions {
  /** Synonyms of a folded query word (a thesaurus); looked up for every word of the query. */
  synonyms?: ((word: string) => readonly string[]) | undefined;
}

/** Weight of a typo correction against a word as typed. */
export const TYPO_WEIGHT = 0.6;
/** Weight of a synonym against a word as typed. */
export const SYNONYM_WEIGHT = 0.4;
/**
 * Terms shorter than this are never read as typos: one edit turns most four-letter words into
 * another word (`wage` → `page`, `cake` → `make`), measured on the held-out set.
 */
const MIN_TYPO_LENGTH = 5;
/** Words at least this long may be two edits away. */
const MIN_TWO_TYPOS_LENGTH = 8;
/** Corrections per typed word at most. */
const MAX_CORRECTIONS = 4;
/** Synonyms per typed word at most. */
const MAX_SYNONYMS = 8;

/**
 * A lexical hit: BM25F score, the query terms it matched, and whether the whole query is one of
 * its identifiers (URN or name, case-insensitive).
 *
 * @example
 * const [best] = index.search('invoices', { environment: 'production', limit: 10 });
 */
export interface LexicalHit {
  key: string;
  score: number;
  matchedTerms: string[];
  /** The query terms it matched, with how each was reached (word, typo, synonym). */
  matches: QueryTerm[];
  exact: 'urn' | 'name' | undefined;
}

interface DocEntry {
  slot: number;
  terms: Map<string, number>;
  identifiers: string[];
}

const FIELD_WEIGHTS = { names: 3, facets: 2, body: 1 } as const;
const K1 = 1.2;
const B = 0.75;

/**
 * The key of an instance in the indexes: environment and system id.
 *
 * @example
 * instanceKey('production', 'urn:dmb:dp:finance:invoices:0');
 */
export function instanceKey(environment: string, systemId: string): string {
  return `${environment}\u0000${systemId}`;
}

/**
 * An in-memory BM25F index over instance documents (names weigh 3, domain/kinds/tags 2, the rest
 * 1), with exact matching of URNs and names. Updating one document touches only its own terms.
 * Documents live in numbered slots (reused after removal): postings map a term to slot → weight,
 * and a search adds scores into one reused Float64Array and keeps the best in a bounded heap, so
 * it allocates per hit returned, not per document scored.
 *
 * @example
 * const index = new LexicalIndex();
 * index.upsert(doc);
 * index.search('customer billing', { environment: 'production', limit: 5 });
 */
export class LexicalIndex {
  private readonly docs = new Map<string, DocEntry>();
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly exact = new Map<string, Set<string>>();
  private readonly typos = new TypoIndex();
  /** A folded word each term was indexed from, to spell a correction as a word. */
  private readonly spelling = new Map<string, string>();
  private slotKeys: Array<string | undefined> = [];
  private slotEnvironment = new Int32Array(64);
  private slotLength = new Float64Array(64);
  private readonly freeSlots: number[] = [];
  private readonly environmentIds = new EnvironmentIds();
  private scores = new Float64Array(64);
  private touched = new Int32Array(64);
  private readonly top = new TopK(64);
  private totalLength = 0;

  get size(): number {
    return this.docs.size;
  }

  upsert(doc: InstanceDocument): void {
    const key = instanceKey(doc.environment, doc.systemId);
    this.remove(key);
    const terms = new Map<string, number>();
    let length = 0;
    const spellings = new Map<string, string>();
    for (const [field, weight] of Object.entries(FIELD_WEIGHTS)) {
      for (const { word, term } of analyzeWords(doc.fields[field as keyof typeof FIELD_WEIGHTS])) {
        terms.set(term, (terms.get(term) ?? 0) + weight);
        if (!spellings.has(term)) spellings.set(term, word);
        length += weight;
      }
    }
    const slot = this.takeSlot();
    this.slotKeys[slot] = key;
    this.slotEnvironment[slot] = this.environmentIds.idOf(doc.environment);
    this.slotLength[slot] = length;
    for (const [term, tf] of terms) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = new Map();
        this.postings.set(term, posting);
        this.typos.add(term);
        this.spelling.set(term, spellings.get(term) ?? term);
      }
      posting.set(slot, tf);
    }
    const identifiers = doc.identifiers.map((i) => i.trim().toLowerCase());
    for (const id of identifiers) {
      let set = this.exact.get(id);
      if (!set) {
        set = new Set();
        this.exact.set(id, set);
      }
      set.add(key);
    }
    this.docs.set(key, { slot, terms, identifiers });
    this.totalLength += length;
  }

  remove(key: string): boolean {
    const entry = this.docs.get(key);
    if (!entry) return false;
    for (const term of entry.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(entry.slot);
      if (posting?.size === 0) {
        this.postings.delete(term);
        this.typos.delete(term);
        this.spelling.delete(term);
      }
    }
    for (const id of entry.identifiers) {
      const set = this.exact.get(id);
      set?.delete(key);
      if (set?.size === 0) this.exact.delete(id);
    }
    this.totalLength -= this.slotLength[entry.slot] as number;
    this.slotKeys[entry.slot] = undefined;
    this.slotEnvironment[entry.slot] = -1;
    this.freeSlots.push(entry.slot);
    this.docs.delete(key);
    return true;
  }

  has(key: string): boolean {
    return this.docs.has(key);
  }

  /**
   * Hits of one environment (of all when `environment` is undefined), best first; exact identifier matches first of all. Terms found in
   * more than half of all documents (`urn`, `dmb`, a version) add almost nothing to BM25 and cost
   * a pass over most postings: they are skipped when the query has a rarer term.
   */
  search(
    query: string,
    options: { environment?: string | undefined; limit: number; plan?: QueryPlan | undefined },
  ): LexicalHit[] {
    const n = this.docs.size;
    const avg = n === 0 ? 1 : this.totalLength / n;
    const env = this.environmentIds.filterOf(options.environment);
    const plan = options.plan ?? this.plan(query);
    const rare = plan.terms.filter((t) => (this.postings.get(t.term)?.size ?? 0) <= n / 2);
    const wanted = rare.length > 0 ? rare : plan.terms;
    const terms = wanted.map((t) => t.term);
    const weights = wanted.map((t) => t.weight);
    const scores = this.scores;
    const touched = this.touched;
    const environments = this.slotEnvironment;
    const lengths = this.slotLength;
    let touchedCount = 0;
    for (let t = 0; t < terms.length; t++) {
      const posting = this.postings.get(terms[t] as string) as Map<number, number>;
      const idf =
        (weights[t] as number) * Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [slot, tf] of posting) {
        if (!inEnvironment(environments[slot] as number, env)) continue;
        const s =
          (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (lengths[slot] as number)) / avg));
        if (scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot] = (scores[slot] as number) + s;
      }
    }
    const q = query.trim().toLowerCase();
    const exactKind = q.startsWith('urn:') ? 'urn' : 'name';
    const exact: string[] = [];
    for (const key of this.exact.get(q) ?? []) {
      const entry = this.docs.get(key);
      if (entry && inEnvironment(environments[entry.slot] as number, env)) exact.push(key);
    }
    const limit = Math.max(1, options.limit);
    const top = this.top;
    top.reset(limit);
    const exactScores = exact.map((key) => scores[(this.docs.get(key) as DocEntry).slot] ?? 0);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i] as number;
      top.offer(slot, scores[slot] as number);
      scores[slot] = 0; // ready for the next search
    }
    const best = top.drain();
    const exactSet = new Set(exact);
    const hits: LexicalHit[] = exact.map((key, i) => ({
      key,
      score: exactScores[i] as number,
      ...this.matched(key, wanted),
      exact: exactKind,
    }));
    for (let i = 0; i < best.ids.length && hits.length < limit; i++) {
      const key = this.slotKeys[best.ids[i] as number] as string;
      if (!exactSet.has(key))
        hits.push({
          key,
          score: best.scores[i] as number,
          ...this.matched(key, wanted),
          exact: undefined,
        });
    }
    return hits.slice(0, limit);
  }

  private takeSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    const slot = this.slotKeys.length;
    this.slotKeys.push(undefined);
    if (slot >= this.slotEnvironment.length) {
      const capacity = this.slotEnvironment.length * 2;
      const environments = new Int32Array(capacity);
      environments.set(this.slotEnvironment);
      this.slotEnvironment = environments;
      const lengths = new Float64Array(capacity);
      lengths.set(this.slotLength);
      this.slotLength = lengths;
      this.scores = new Float64Array(capacity);
      this.touched = new Int32Array(capacity);
    }
    return slot;
  }

  /**
   * What a query looks for: each word's term when the index has it; otherwise, for a word of 4
   * letters or more, the indexed terms one edit away (two for 8 letters or more, when none is
   * one away), weighted {@link TYPO_WEIGHT}; and the indexed synonyms of each word, weighted
   * {@link SYNONYM_WEIGHT}. `didYouMean` respells the query with each typo's most common
   * correction.
   */
  plan(query: string, options: QueryPlanOptions = {}): QueryPlan {
    const terms: QueryTerm[] = [];
    const seen = new Set<string>();
    const push = (t: QueryTerm) => {
      if (seen.has(t.term)) return;
      seen.add(t.term);
      terms.push(t);
    };
    const corrections = new Map<string, string>();
    for (const { word, term } of analyzeWords(query, 64)) {
      if (this.postings.has(term)) push({ term, typed: word, via: 'word', weight: 1 });
      else if (term.length >= MIN_TYPO_LENGTH && !/\d/.test(word)) {
        let near = this.typos.near(term, 1, 64);
        if (near.length === 0 && word.length >= MIN_TWO_TYPOS_LENGTH)
          near = this.typos.near(term, 2, 64);
        const byFrequency = near
          .map((t) => ({ t, df: this.postings.get(t)?.size ?? 0 }))
          .sort((a, b) => b.df - a.df || (a.t < b.t ? -1 : 1))
          .slice(0, MAX_CORRECTIONS);
        for (const { t } of byFrequency)
          push({ term: t, typed: word, via: 'typo', weight: TYPO_WEIGHT });
        const best = byFrequency[0];
        const spelled = best && (this.spelling.get(best.t) ?? best.t);
        // `owed` matching `owe` is an inflection, not a misspelling: nothing to suggest.
        if (spelled && !word.startsWith(spelled)) corrections.set(word, spelled);
      }
      // Only a word no instance uses is expanded: a word found as typed already says what the
      // user means, and its synonyms (other senses included) would only add noise.
      let synonyms = 0;
      const expand = !this.postings.has(term) && options.synonyms;
      for (const synonym of expand ? expand(word) : []) {
        for (const s of tokenize(synonym, 4)) {
          if (synonyms >= MAX_SYNONYMS || !this.postings.has(s)) continue;
          push({ term: s, typed: word, via: 'synonym', weight: SYNONYM_WEIGHT });
          synonyms++;
        }
      }
    }
    const didYouMean =
      corrections.size === 0
        ? undefined
        : foldedWords(query)
            .map((w) => corrections.get(w) ?? w)
            .join(' ');
    return { terms, didYouMean };
  }

  private matched(
    key: string,
    terms: readonly QueryTerm[],
  ): { matchedTerms: string[]; matches: QueryTerm[] } {
    const doc = this.docs.get(key);
    const matches = doc ? terms.filter((t) => doc.terms.has(t.term)) : [];
    return { matchedTerms: matches.map((t) => t.term), matches };
  }
}
