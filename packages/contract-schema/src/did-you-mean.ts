/**
 * The first of `candidates` within two edits (Levenshtein) of `key`: the key a misspelt one most
 * likely meant, for "did you mean" hints; `undefined` when none is that close.
 *
 * @example
 * didYouMean('qualiti', ['schema', 'quality']); // 'quality'
 * didYouMean('Quality', ['quality'], { ignoreCase: true }); // 'quality'
 */
export function didYouMean(
  key: string,
  candidates: Iterable<string>,
  options: { ignoreCase?: boolean } = {},
): string | undefined {
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  const wanted = fold(key);
  for (const candidate of candidates) {
    if (withinTwoEdits(wanted, fold(candidate))) return candidate;
  }
  return undefined;
}

function withinTwoEdits(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return (previous[b.length] ?? 0) <= 2;
}
