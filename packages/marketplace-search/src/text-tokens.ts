import { foldedWords } from '@dcg/text-match';

const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have in is it its of on or that the this to was were ' +
    'will with which what who where when how do does i me my we our you your all any some data ' +
    'find show list get give about there their them these those than then into'
  ).split(' '),
);

/**
 * A light English stemmer: plurals and the common verb endings, so `invoices`/`invoice` and
 * `shipped`/`shipping`/`shipment`… meet on one term. Deliberately small: names stay readable.
 *
 * @example
 * stem('deliveries'); // 'delivery'
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  return word;
}

/**
 * The words of a text as lexical search reads them, each with its term: camelCase split, folded
 * (case, diacritics, punctuation: `Crème`/`Straße` match `creme`/`strasse`, as in the knowledge
 * graph's search), stop words dropped, stemmed. At most `max` (hostile input stays bounded).
 *
 * @example
 * analyzeWords('customerInvoices'); // [{ word: 'customer', term: 'customer' }, { word: 'invoices', term: 'invoice' }]
 */
export function analyzeWords(text: string, max = 20_000): Array<{ word: string; term: string }> {
  const out: Array<{ word: string; term: string }> = [];
  for (const word of foldedWords(text.replace(/([a-z0-9])([A-Z])/g, '$1 $2'))) {
    if (STOPWORDS.has(word)) continue;
    out.push({ word, term: stem(word) });
    if (out.length >= max) break;
  }
  return out;
}

/**
 * Lexical terms of a text: the terms of {@link analyzeWords}.
 *
 * @example
 * tokenize('customerInvoices by region'); // ['customer', 'invoice', 'region']
 * tokenize('Crème Straße'); // ['creme', 'strasse']
 */
export function tokenize(text: string, max = 20_000): string[] {
  return analyzeWords(text, max).map((w) => w.term);
}
