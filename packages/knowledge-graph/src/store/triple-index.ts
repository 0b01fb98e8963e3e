import type { QueryDatasetCursor, TripleOrder } from '@dcg/sparql-subset';

/**
 * The triples in one sort order, as compressed sparse rows: the rows of first key `k` are
 * `[offsets[k], offsets[k + 1])`, sorted by second then third key, stored in `second` and
 * `third`. 8 bytes per triple plus 4 per term; the first key is never repeated.
 */
export interface TripleIndex {
  readonly order: TripleOrder;
  readonly offsets: Uint32Array;
  readonly second: Uint32Array;
  readonly third: Uint32Array;
}

/** First index in `[lo, hi)` whose value is >= key (`hi` when none). */
export function lowerBound(values: Uint32Array, lo: number, hi: number, key: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `[lo, hi)` whose value is > key (`hi` when none). */
export function upperBound(values: Uint32Array, lo: number, hi: number, key: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The row range `[out[0], out[1])` of the triples whose first keys are `a` (and `b`, and `c`;
 * 0 = any). Written into `out` so that a lookup per join step allocates nothing.
 */
export function rangeOf(
  index: TripleIndex,
  a: number,
  b: number,
  c: number,
  out: Uint32Array,
): void {
  const offsets = index.offsets;
  let lo = 0;
  let hi = 0;
  if (a === 0) hi = index.second.length;
  else if (a < offsets.length - 1) {
    lo = offsets[a] as number;
    hi = offsets[a + 1] as number;
    if (b !== 0 && lo !== hi) {
      lo = lowerBound(index.second, lo, hi, b);
      hi = upperBound(index.second, lo, hi, b);
      if (c !== 0 && lo !== hi) {
        lo = lowerBound(index.third, lo, hi, c);
        hi = lo < hi && index.third[lo] === c ? lo + 1 : lo;
      }
    }
  }
  out[0] = lo;
  out[1] = hi;
}

/**
 * Walks rows `[from, to)` of an index, exposing each as `s`, `p`, `o`. With no first key bound
 * (`first` 0) it follows the offsets to know each row's first key.
 */
export class IndexCursor implements QueryDatasetCursor {
  s = 0;
  p = 0;
  o = 0;
  readonly order: TripleOrder;
  /** The row after the current one. */
  private i: number;
  /** The first key of the current row, and where its rows end. */
  private key: number;
  private keyEnd: number;

  constructor(
    private readonly index: TripleIndex,
    from: number,
    private readonly to: number,
    private readonly first: number,
  ) {
    this.order = index.order;
    this.i = from;
    this.key = first;
    this.keyEnd = first === 0 ? 0 : to;
  }

  next(): boolean {
    const i = this.i;
    if (i >= this.to) return false;
    this.i = i + 1;
    let a = this.key;
    if (i >= this.keyEnd) {
      const offsets = this.index.offsets;
      // Terms that are never in this position have empty rows: step over them.
      a++;
      while ((offsets[a + 1] as number) <= i) a++;
      this.key = a;
      this.keyEnd = offsets[a + 1] as number;
    }
    const b = this.index.second[i] as number;
    const c = this.index.third[i] as number;
    switch (this.order) {
      case 'spo':
        this.s = a;
        this.p = b;
        this.o = c;
        break;
      case 'pos':
        this.p = a;
        this.o = b;
        this.s = c;
        break;
      default:
        this.o = a;
        this.s = b;
        this.p = c;
    }
    return true;
  }

  skip(n: number): number {
    const from = this.i;
    const target = Math.min(this.to, from + n);
    this.i = target;
    if (this.first === 0 && target > this.keyEnd) {
      // The first key of the row before `target`: the last key whose rows start at or before it.
      this.key = upperBound(this.index.offsets, 0, this.index.offsets.length, target - 1) - 1;
      this.keyEnd = this.index.offsets[this.key + 1] as number;
    }
    return target - from;
  }

  skipGroup(depth: 1 | 2): void {
    const i = this.i;
    if (i === 0 || i >= this.to) return;
    if (depth === 1) {
      this.i = Math.min(this.keyEnd, this.to);
      return;
    }
    const second = this.index.second;
    const current = second[i - 1] as number;
    if (second[i] !== current) return;
    this.i = upperBound(second, i, Math.min(this.keyEnd, this.to), current);
  }
}
