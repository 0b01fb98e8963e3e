// Combining marks left after NFKD decomposition (diacritics).
const combiningMarks = /\p{M}+/gu;
// Anything that is not a letter or a digit separates words.
const separators = /[^\p{L}\p{N}]+/gu;
// Text that lower-casing alone folds fully (printable ASCII): the common case skips the second pass.
const nonAscii = /[^ -~\t\n\r]/;

/**
 * Folds text for matching: Unicode compatibility decomposition, diacritics removed, full case
 * folding, punctuation turned into spaces, whitespace collapsed.
 *
 * Case folding is full, not just lower case: `Straße` and `STRASSE` both fold to `strasse`, the
 * final sigma `ς` to `σ`. Turkish dotted and dotless i fold to a plain `i` (`İstanbul`,
 * `ıstanbul` and `Istanbul` match each other), the way diacritics are dropped.
 *
 * @example
 * foldText('Crème-Brûlée, São Paulo!'); // 'creme brulee sao paulo'
 * foldText('Straße'); // 'strasse'
 */
export function foldText(text: string): string {
  let folded = text.normalize('NFKD').replace(combiningMarks, '').toLowerCase();
  if (nonAscii.test(folded)) {
    // Upper then lower case applies the full (one-to-many) mappings that lower case lacks:
    // ß → SS → ss, ς → Σ → σ, ı → I → i. Marks it brings back (rare) are removed again.
    folded = folded.toUpperCase().toLowerCase().normalize('NFKD').replace(combiningMarks, '');
  }
  return folded.replace(separators, ' ').trim();
}

/**
 * Splits text into folded words (see {@link foldText}).
 *
 * @example
 * foldedWords('Water-quality  index'); // ['water', 'quality', 'index']
 */
export function foldedWords(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}
