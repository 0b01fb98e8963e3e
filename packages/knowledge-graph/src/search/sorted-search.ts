/**
 * Searches in sorted arrays, shared by the word list (prefix ranges) and the postings (a
 * document's entries within a word).
 */

/** First index in `[lo, hi)` of the sorted `values` whose value is >= `key` (`hi` when none). */
export function lowerBound<T extends number | string>(
  values: ArrayLike<T>,
  lo: number,
  hi: number,
  key: T,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * {@link lowerBound} for a key at or after `lo`, likely near it: steps of doubling length find
 * the range first, so that walking a list forward costs the log of each gap, not of the list.
 */
export function gallop(values: Int32Array, lo: number, hi: number, key: number): number {
  if (lo >= hi || values[lo]! >= key) return lo;
  let below = lo; // values[below] < key
  let step = 1;
  let at = lo + 1;
  while (at < hi && values[at]! < key) {
    below = at;
    step *= 2;
    at = below + step;
  }
  return lowerBound(values, below + 1, Math.min(at, hi), key);
}
