// Deterministic synthetic SKOS vocabulary for the benchmark: pseudo-words with a Zipf-like
// frequency, a tree of concepts (fan-out 10), labels in two languages, definitions, related links.

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const BENCH_BASE = 'https://bench.dcg.example.org/c/';
export const BENCH_SCHEME = 'https://bench.dcg.example.org/scheme';

/** A small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'si',
  'pe',
  'da',
  'gri',
  'bel',
  'tor',
  'mun',
  'fal',
  'ces',
  'qua',
  'lin',
  'dra',
  'pol',
  'ser',
  'vin',
  'cor',
  'tes',
  'ban',
  'mer',
  'hul',
  'zan',
];

/** Generated words, most frequent first. */
export function makeWords(count: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < count) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Picks a word with a Zipf-like distribution (rank^-0.9). */
export function zipfPicker(words: string[], random: () => number): () => string {
  const weights = words.map((_, i) => 1 / (i + 1) ** 0.9);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    cumulative.push(sum);
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

export interface Vocabulary {
  ntriples: string;
  triples: number;
  prefLabels: string[];
  words: string[];
}

/** N-Triples of `concepts` concepts (about 9 triples each). */
export function makeVocabulary(concepts: number, seed = 42): Vocabulary {
  const random = prng(seed);
  const words = makeWords(Math.max(2_000, Math.round(concepts / 5)), random);
  const pick = zipfPicker(words, random);
  const lines: string[] = [];
  const prefLabels: string[] = [];
  const iri = (i: number) => `<${BENCH_BASE}${i}>`;
  const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
  for (let i = 0; i < concepts; i++) {
    const s = iri(i);
    const label = cap(phrase(2 + Math.floor(random() * 2)));
    prefLabels.push(label);
    lines.push(
      `${s} <${RDF_TYPE}> <${SKOS}Concept> .`,
      `${s} <${SKOS}inScheme> <${BENCH_SCHEME}> .`,
      `${s} <${SKOS}prefLabel> "${label}"@en .`,
      `${s} <${SKOS}prefLabel> "${cap(phrase(2))}"@de .`,
      `${s} <${SKOS}altLabel> "${cap(phrase(1 + Math.floor(random() * 2)))}"@en .`,
      `${s} <${SKOS}definition> "${cap(phrase(8 + Math.floor(random() * 7)))}."@en .`,
      `${s} <${SKOS}notation> "C-${i}" .`,
      `${s} <${SKOS}related> ${iri(Math.floor(random() * concepts))} .`,
    );
    if (i > 0) lines.push(`${s} <${SKOS}broader> ${iri(Math.floor((i - 1) / 10))} .`);
  }
  return { ntriples: `${lines.join('\n')}\n`, triples: lines.length, prefLabels, words };
}

/** 1,000 fixed search terms: words, phrases, prefixes while typing, typos, rare words. */
export function makeSearchTerms(vocabulary: Vocabulary, count = 1_000, seed = 7): string[] {
  const random = prng(seed);
  const any = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const terms: string[] = [];
  for (let i = 0; i < count; i++) {
    const label = any(vocabulary.prefLabels);
    const labelWords = label.split(' ');
    const kind = i % 10;
    if (kind < 4) terms.push(any(labelWords).toLowerCase());
    else if (kind < 6) terms.push(label);
    else if (kind < 8) {
      const last = labelWords.at(-1)!;
      const cut = Math.min(last.length, 3 + Math.floor(random() * 3));
      terms.push([...labelWords.slice(0, -1), last.slice(0, cut)].join(' '));
    } else if (kind === 8) {
      const w = any(labelWords).toLowerCase();
      const at = 1 + Math.floor(random() * (w.length - 1));
      terms.push(`${w.slice(0, at)}${w[at] === 'x' ? 'y' : 'x'}${w.slice(at + 1)}`);
    } else terms.push(any(vocabulary.words.slice(-500)));
  }
  return terms;
}
