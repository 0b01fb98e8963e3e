/** One media range of an `Accept` header, lower-cased, with its quality (`q`, default 1). */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

// RFC 9110 §12.4.2: a qvalue is 0 to 1 with at most three decimals; anything else counts as 0.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The media ranges of an `Accept` header (RFC 9110 §12.5.1), in the header's order. At most 64
 * ranges are read: a hostile header with thousands of them is cut, not parsed forever. A range
 * without a type and subtype is skipped; an invalid `q` counts as 0 (not acceptable).
 *
 * @example
 * parseAccept('text/turtle;q=0.5, application/ld+json');
 * // [{ type: 'text', subtype: 'turtle', q: 0.5 }, { type: 'application', subtype: 'ld+json', q: 1 }]
 */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',').slice(0, 64)) {
    const [range, ...params] = part.split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined) {
        q = QVALUE.test(value) ? Number(value) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The quality a media type gets under the most specific range that matches it (`type/subtype`
 * over `type/*` over `*\/*`); 0 when none does. `exact` counts only a range that names the type
 * itself (for aliases, which a wildcard already matched under their canonical name).
 *
 * @example
 * acceptQuality('text/csv', parseAccept('text/*;q=0.4, *\/*;q=0.1')); // 0.4
 */
export function acceptQuality(
  mediaType: string,
  ranges: readonly MediaRange[],
  options: { exact?: boolean } = {},
): number {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    let specificity: number;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (options.exact) continue;
    else if (range.type === type && range.subtype === '*') specificity = 1;
    else if (range.type === '*' && range.subtype === '*') specificity = 0;
    else continue;
    if (!best || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}
