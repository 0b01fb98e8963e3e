// Rows reused across calls: the typo scan calls this thousands of times per query.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition) between `a` and
 * `b`, or `max + 1` as soon as it is known to exceed `max`, so that scanning a vocabulary for
 * typos stays cheap.
 *
 * @example
 * boundedEditDistance('qaulity', 'quality', 2); // 1
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb * 2);
    rowB = new Int32Array(lb * 2);
    rowC = new Int32Array(lb * 2);
  }
  let prevPrev = rowA;
  let prev = rowB;
  let curr = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  // A transposition reaches back two rows, so stopping early needs two rows past the bound.
  let previousRowMin = 0;
  for (let i = 1; i <= la; i++) {
    curr[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    const caPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let value = prev[j - 1]! + cost;
      const del = prev[j]! + 1;
      if (del < value) value = del;
      const ins = curr[j - 1]! + 1;
      if (ins < value) value = ins;
      if (j > 1 && caPrev === cb && ca === b.charCodeAt(j - 2)) {
        const tr = prevPrev[j - 2]! + 1;
        if (tr < value) value = tr;
      }
      curr[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max && previousRowMin > max) return max + 1;
    previousRowMin = rowMin;
    const recycled = prevPrev;
    prevPrev = prev;
    prev = curr;
    curr = recycled;
  }
  const distance = prev[lb]!;
  return distance > max ? max + 1 : distance;
}
