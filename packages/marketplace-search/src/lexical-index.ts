import type { InstanceDocument } from './instance-text';
import { tokenize } from './text-tokens';

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
  environment: string;
  terms: Map<string, number>;
  length: number;
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
 *
 * @example
 * const index = new LexicalIndex();
 * index.upsert(doc);
 * index.search('customer billing', { environment: 'production', limit: 5 });
 */
export class LexicalIndex {
  private readonly docs = new Map<string, DocEntry>();
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly exact = new Map<string, Set<string>>();
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
    for (const [term, tf] of terms) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = new Map();
        this.postings.set(term, posting);
      }
      posting.set(key, tf);
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
    this.docs.set(key, { environment: doc.environment, terms, length, identifiers });
    this.totalLength += length;
  }

  remove(key: string): boolean {
    const entry = this.docs.get(key);
    if (!entry) return false;
    for (const term of entry.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(key);
      if (posting?.size === 0) this.postings.delete(term);
    }
    for (const id of entry.identifiers) {
      const set = this.exact.get(id);
      set?.delete(key);
      if (set?.size === 0) this.exact.delete(id);
    }
    this.totalLength -= entry.length;
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
    const present = [...new Set(tokenize(query, 64))].filter((t) => this.postings.has(t));
    const rare = present.filter((t) => (this.postings.get(t)?.size ?? 0) <= n / 2);
    const terms = rare.length > 0 ? rare : present;
    const scores = new Map<string, number>();
    for (const term of terms) {
      const posting = this.postings.get(term) as Map<string, number>;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [key, tf] of posting) {
        const doc = this.docs.get(key) as DocEntry;
        if (doc.environment !== options.environment) continue;
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg));
        scores.set(key, (scores.get(key) ?? 0) + s);
      }
    }
    const q = query.trim().toLowerCase();
    const exactKind = q.startsWith('urn:') ? 'urn' : 'name';
    const exact: string[] = [];
    for (const key of this.exact.get(q) ?? []) {
      if (this.docs.get(key)?.environment === options.environment) exact.push(key);
    }
    const limit = Math.max(1, options.limit);
    // The best `limit` of the scored documents, by insertion into a small sorted buffer.
    const best: Array<{ key: string; score: number }> = [];
    let floor = Number.NEGATIVE_INFINITY;
    for (const [key, score] of scores) {
      if (best.length === limit && score <= floor) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as { score: number }).score < score) at--;
      best.splice(at, 0, { key, score });
      if (best.length > limit) best.pop();
      if (best.length === limit) floor = (best[limit - 1] as { score: number }).score;
    }
    const exactSet = new Set(exact);
    const hits: LexicalHit[] = exact.map((key) => ({
      key,
      score: scores.get(key) ?? 0,
      matchedTerms: this.matched(key, terms),
      exact: exactKind,
    }));
    for (const { key, score } of best) {
      if (!exactSet.has(key))
        hits.push({ key, score, matchedTerms: this.matched(key, terms), exact: undefined });
    }
    return hits.slice(0, limit);
  }

  private matched(key: string, terms: readonly string[]): string[] {
    const doc = this.docs.get(key);
    return doc ? terms.filter((t) => doc.terms.has(t)) : [];
  }
}
