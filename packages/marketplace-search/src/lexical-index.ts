import { EnvironmentIds } from './environment-ids';
import type { InstanceDocument } from './instance-text';
import { tokenize } from './text-tokens';
import { TopK } from './top-k';

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
    for (const [field, weight] of Object.entries(FIELD_WEIGHTS)) {
      for (const term of tokenize(doc.fields[field as keyof typeof FIELD_WEIGHTS])) {
        terms.set(term, (terms.get(term) ?? 0) + weight);
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
      if (posting?.size === 0) this.postings.delete(term);
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
   * Hits of one environment, best first; exact identifier matches first of all. Terms found in
   * more than half of all documents (`urn`, `dmb`, a version) add almost nothing to BM25 and cost
   * a pass over most postings: they are skipped when the query has a rarer term.
   */
  search(query: string, options: { environment: string; limit: number }): LexicalHit[] {
    const n = this.docs.size;
    const avg = n === 0 ? 1 : this.totalLength / n;
    const env = this.environmentIds.find(options.environment) ?? -2;
    const present = [...new Set(tokenize(query, 64))].filter((t) => this.postings.has(t));
    const rare = present.filter((t) => (this.postings.get(t)?.size ?? 0) <= n / 2);
    const terms = rare.length > 0 ? rare : present;
    const scores = this.scores;
    const touched = this.touched;
    const environments = this.slotEnvironment;
    const lengths = this.slotLength;
    let touchedCount = 0;
    for (const term of terms) {
      const posting = this.postings.get(term) as Map<number, number>;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [slot, tf] of posting) {
        if (environments[slot] !== env) continue;
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
      if (entry && environments[entry.slot] === env) exact.push(key);
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
      matchedTerms: this.matched(key, terms),
      exact: exactKind,
    }));
    for (let i = 0; i < best.ids.length && hits.length < limit; i++) {
      const key = this.slotKeys[best.ids[i] as number] as string;
      if (!exactSet.has(key))
        hits.push({
          key,
          score: best.scores[i] as number,
          matchedTerms: this.matched(key, terms),
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

  private matched(key: string, terms: readonly string[]): string[] {
    const doc = this.docs.get(key);
    return doc ? terms.filter((t) => doc.terms.has(t)) : [];
  }
}
