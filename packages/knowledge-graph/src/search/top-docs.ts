/**
 * The `k` best documents offered, by score, ties by document id (first indexed first): a bounded
 * heap with the worst kept on top, instead of sorting every candidate.
 *
 * @example
 * const top = new TopDocs(2);
 * top.offer(7, 1.5); top.offer(3, 2); top.offer(5, 1.5);
 * top.sorted(); // { docs: [3, 5], scores: [2, 1.5] }
 */
export class TopDocs {
  readonly #k: number;
  readonly #docs: number[] = [];
  readonly #scores: number[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  #worse(a: number, b: number): boolean {
    const sa = this.#scores[a]!;
    const sb = this.#scores[b]!;
    return sa < sb || (sa === sb && this.#docs[a]! > this.#docs[b]!);
  }

  #swap(a: number, b: number): void {
    const docs = this.#docs;
    const scores = this.#scores;
    [docs[a], docs[b]] = [docs[b]!, docs[a]!];
    [scores[a], scores[b]] = [scores[b]!, scores[a]!];
  }

  /** Keeps `doc` when it ranks among the `k` best so far; tells whether `k` are kept. */
  offer(doc: number, score: number): boolean {
    if (this.#k <= 0) return true;
    const docs = this.#docs;
    const scores = this.#scores;
    if (docs.length < this.#k) {
      docs.push(doc);
      scores.push(score);
      for (let i = docs.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(i, parent)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return docs.length === this.#k;
    }
    if (!(score > scores[0]! || (score === scores[0]! && doc < docs[0]!))) return true;
    docs[0] = doc;
    scores[0] = score;
    for (let i = 0; ; ) {
      const l = i * 2 + 1;
      const r = l + 1;
      let worst = i;
      if (l < docs.length && this.#worse(l, worst)) worst = l;
      if (r < docs.length && this.#worse(r, worst)) worst = r;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
    return true;
  }

  /**
   * The worst score kept (once `k` are): a document offered later with a larger id must score
   * more to enter.
   */
  threshold(): number {
    return this.#scores[0]!;
  }

  /** The documents kept, best first, and their scores. */
  sorted(): { docs: number[]; scores: number[] } {
    const order = this.#docs.map((_, i) => i);
    order.sort((a, b) => (this.#worse(b, a) ? -1 : 1));
    return { docs: order.map((i) => this.#docs[i]!), scores: order.map((i) => this.#scores[i]!) };
  }
}
