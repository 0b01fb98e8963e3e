import { isBlankId, isLiteralId, literalParts } from '../../src/term-ids';
import { termValue } from '../../src/term-values';
import type { Solution } from './result-sets';

/**
 * Term equality for result comparison: identical ids, or numeric literals of the same datatype and
 * value (canonical lexical forms differ between implementations, e.g. "1.0" and "1.00").
 */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  if (!isLiteralId(a) || !isLiteralId(b)) return false;
  const pa = literalParts(a);
  const pb = literalParts(b);
  if (pa.datatype !== pb.datatype || pa.lang !== pb.lang) return false;
  const va = termValue(a);
  const vb = termValue(b);
  return (
    va.k === 'num' &&
    vb.k === 'num' &&
    (va.n === vb.n || (Number.isNaN(va.n) && Number.isNaN(vb.n)))
  );
}

function rowMatches(
  expected: Solution,
  actual: Solution,
  mapping: Map<string, string>,
  used: Set<string>,
): Map<string, string> | undefined {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  let extended: Map<string, string> | undefined;
  for (const key of keys) {
    const e = expected[key];
    const a = actual[key];
    if (e === undefined || a === undefined) {
      if (e !== a) return undefined;
      continue;
    }
    if (isBlankId(e) || isBlankId(a)) {
      if (!isBlankId(e) || !isBlankId(a)) return undefined;
      const current = (extended ?? mapping).get(e);
      if (current === undefined) {
        if (used.has(a) || [...(extended?.values() ?? [])].includes(a)) return undefined;
        extended ??= new Map(mapping);
        extended.set(e, a);
      } else if (current !== a) return undefined;
      continue;
    }
    if (!sameValue(e, a)) return undefined;
  }
  return extended ?? mapping;
}

/** Multiset equality of solutions, with a consistent renaming of blank nodes. */
export function sameSolutions(expected: Solution[], actual: Solution[], ordered: boolean): boolean {
  if (expected.length !== actual.length) return false;
  const taken = new Array<boolean>(actual.length).fill(false);
  const search = (i: number, mapping: Map<string, string>): boolean => {
    if (i === expected.length) return true;
    const used = new Set(mapping.values());
    const candidates = ordered ? [i] : actual.map((_, j) => j);
    for (const j of candidates) {
      if (taken[j]) continue;
      const next = rowMatches(expected[i] as Solution, actual[j] as Solution, mapping, used);
      if (!next) continue;
      taken[j] = true;
      if (search(i + 1, next)) return true;
      taken[j] = false;
    }
    return false;
  };
  return search(0, new Map());
}
