import { boundedEditDistance } from './edit-distance';

function deletionsOf(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * A vocabulary that finds the words a typo was meant to be: at edit distance 1 through a
 * symmetric-deletion index (every word filed under each of its one-letter deletions, so a lookup
 * touches a handful of candidates, never the vocabulary), at distance 2 by scanning the words
 * within two letters of the typed length with {@link boundedEditDistance}. Distance is
 * optimal string alignment: an adjacent transposition (`ordres` → `orders`) counts 1. Words can
 * be added and removed as the indexed documents change.
 *
 * @example
 * const typos = new TypoIndex(['orders', 'invoice', 'payroll']);
 * typos.near('ordres', 1); // ['orders']
 * typos.near('payrol', 1); // ['payroll']
 */
export class TypoIndex {
  readonly #words = new Set<string>();
  readonly #deletions = new Map<string, Set<string>>();
  readonly #byLength = new Map<number, Set<string>>();

  constructor(words: Iterable<string> = []) {
    for (const word of words) this.add(word);
  }

  /** Number of words. */
  get size(): number {
    return this.#words.size;
  }

  has(word: string): boolean {
    return this.#words.has(word);
  }

  add(word: string): void {
    if (this.#words.has(word)) return;
    this.#words.add(word);
    for (const variant of deletionsOf(word)) {
      const set = this.#deletions.get(variant);
      if (set) set.add(word);
      else this.#deletions.set(variant, new Set([word]));
    }
    const same = this.#byLength.get(word.length);
    if (same) same.add(word);
    else this.#byLength.set(word.length, new Set([word]));
  }

  delete(word: string): boolean {
    if (!this.#words.delete(word)) return false;
    for (const variant of deletionsOf(word)) {
      const set = this.#deletions.get(variant);
      set?.delete(word);
      if (set?.size === 0) this.#deletions.delete(variant);
    }
    const same = this.#byLength.get(word.length);
    same?.delete(word);
    if (same?.size === 0) this.#byLength.delete(word.length);
    return true;
  }

  /**
   * Words at edit distance exactly `distance` (1 or 2) from `word`, other than `word` itself, at
   * most `limit` (default 24) of them, in the order they were added.
   */
  near(word: string, distance: 1 | 2, limit = 24): string[] {
    const out: string[] = [];
    if (distance === 1) {
      const candidates = new Set<string>(this.#deletions.get(word));
      for (const variant of deletionsOf(word)) {
        if (this.#words.has(variant)) candidates.add(variant);
        for (const w of this.#deletions.get(variant) ?? []) candidates.add(w);
      }
      candidates.delete(word);
      for (const w of candidates) {
        if (boundedEditDistance(word, w, 1) !== 1) continue;
        out.push(w);
        if (out.length >= limit) break;
      }
      return out;
    }
    for (let len = word.length - 2; len <= word.length + 2; len++) {
      for (const w of this.#byLength.get(len) ?? []) {
        if (boundedEditDistance(word, w, 2) !== 2) continue;
        out.push(w);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }
}
