// Combining marks left after NFKD decomposition (diacritics).
const combiningMarks = /\p{M}+/gu;
// Anything that is not a letter or a digit separates words.
const separators = /[^\p{L}\p{N}]+/gu;

/**
 * Folds text for matching: Unicode compatibility decomposition, diacritics removed, lower case,
 * punctuation turned into spaces, whitespace collapsed.
 *
 * @example
 * foldText('Crème-Brûlée, São Paulo!'); // 'creme brulee sao paulo'
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(combiningMarks, '')
    .toLowerCase()
    .replace(separators, ' ')
    .trim();
}

/**
 * Splits text into folded words (see {@link foldText}).
 *
 * @example
 * tokenize('Water-quality  index'); // ['water', 'quality', 'index']
 */
export function tokenize(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}
