/**
 * A BCP 47 language tag in its conventional case (RFC 5646, section 2.1.1): language and
 * extensions lower case, a two-letter region upper case, a four-letter script title case, so
 * `en-us` → `en-US` and `ZH-HANT-TW` → `zh-Hant-TW`. Tags compare case-insensitively in RDF and
 * n3 stores them in lower case; this restores the form people write.
 *
 * @example
 * canonicalLanguageTag('de-ch-1996'); // 'de-CH-1996'
 */
export function canonicalLanguageTag(tag: string): string {
  // A lone language subtag (`en`, `de`, most tags in practice) is just lower case.
  if (!tag.includes('-')) return tag.toLowerCase();
  const subtags = tag.split('-');
  let afterSingleton = false;
  return subtags
    .map((subtag, index) => {
      const lower = subtag.toLowerCase();
      if (afterSingleton) return lower;
      if (subtag.length === 1) {
        // An extension or private use (`x-…`, `-x-`): what follows keeps lower case.
        afterSingleton = true;
        return lower;
      }
      if (index === 0) return lower;
      if (subtag.length === 2) return lower.toUpperCase();
      if (subtag.length === 4 && /^[a-z]{4}$/.test(lower)) {
        return lower.charAt(0).toUpperCase() + lower.slice(1);
      }
      return lower;
    })
    .join('-');
}
