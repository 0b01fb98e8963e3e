/**
 * The `capacity` best (highest-scoring) integer ids of a stream, kept in a bounded min-heap over
 * typed arrays: a scan over thousands of rows offers each one without allocating anything, and
 * costs O(log capacity) only for the rows that beat the worst kept so far. Reusable: `reset()`
 * empties it for the next scan.
 *
 * @example
 * const top = new TopK(2);
 * top.offer(7, 0.5); top.offer(8, 0.9); top.offer(9, 0.1);
 * top.drain(); // { ids: Int32Array [8, 7], scores: Float64Array [0.9, 0.5] }
 */
export class TopK {
  private ids: Int32Array;
  private scores: Float64Array;
  private count = 0;

  constructor(private capacity: number) {
    this.ids = new Int32Array(Math.max(1, capacity));
    this.scores = new Float64Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.count;
  }

  /** The lowest score kept, once full (before that, -Infinity: anything enters). */
  get floor(): number {
    return this.count < this.capacity ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  /** Empties the heap, optionally with another capacity. */
  reset(capacity = this.capacity): void {
    if (capacity > this.ids.length) {
      this.ids = new Int32Array(capacity);
      this.scores = new Float64Array(capacity);
    }
    this.capacity = Math.max(1, capacity);
    this.count = 0;
  }

  offer(id: number, score: number): void {
    if (this.count < this.capacity) {
      this.siftUp(this.count++, id, score);
    } else if (TopK.below(this.scores[0] as number, this.ids[0] as number, score, id)) {
      this.siftDown(0, id, score);
    }
  }

  /** The kept ids and scores, best first (ties: lower id first); empties the heap. */
  drain(): { ids: Int32Array; scores: Float64Array } {
    const n = this.count;
    const ids = new Int32Array(n);
    const scores = new Float64Array(n);
    // Pop the minimum into the back of the output, so the best ends first.
    for (let out = n - 1; out >= 0; out--) {
      ids[out] = this.ids[0] as number;
      scores[out] = this.scores[0] as number;
      const lastId = this.ids[this.count - 1] as number;
      const lastScore = this.scores[this.count - 1] as number;
      this.count--;
      if (this.count > 0) this.siftDown(0, lastId, lastScore);
    }
    return { ids, scores };
  }

  /** Whether (idA, a) ranks below (idB, b): lower score, or on a tie the higher id. */
  private static below(a: number, idA: number, b: number, idB: number): boolean {
    return a < b || (a === b && idA > idB);
  }

  /**
   * Moves the entry at `at` up while it beats its parent, each parent moving down into the hole it
   * leaves; `id`/`score` are written once, where the hole stops.
   */
  private siftUp(at: number, id: number, score: number): void {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!TopK.below(score, id, this.scores[parent] as number, this.ids[parent] as number)) break;
      this.copy(parent, i);
      i = parent;
    }
    this.set(i, id, score);
  }

  /** Moves the entry at `at` down while its lower child ranks below it (holes as in `siftUp`). */
  private siftDown(at: number, id: number, score: number): void {
    const n = this.count;
    let i = at;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (
        right < n &&
        TopK.below(
          this.scores[right] as number,
          this.ids[right] as number,
          this.scores[left] as number,
          this.ids[left] as number,
        )
      )
        child = right;
      if (!TopK.below(this.scores[child] as number, this.ids[child] as number, score, id)) break;
      this.copy(child, i);
      i = child;
    }
    this.set(i, id, score);
  }

  /** Copies the entry at position `from` to `to` (ids and scores are parallel arrays). */
  private copy(from: number, to: number): void {
    this.ids[to] = this.ids[from] as number;
    this.scores[to] = this.scores[from] as number;
  }

  private set(at: number, id: number, score: number): void {
    this.ids[at] = id;
    this.scores[at] = score;
  }
}
