import { termToId } from '@dcg/sparql-subset';
import type { Quad } from 'n3';
import { KnowledgeGraphError } from '../errors';
import { TermDictionary } from './term-dictionary';
import type { TripleIndex } from './triple-index';
import { TripleStore } from './triple-store';

const INITIAL_TRIPLES = 1 << 14;

/**
 * Collects triples for a {@link TripleStore}: terms are interned as they arrive (each stored once),
 * triples are appended as three ids, and `build()` sorts them in bulk into the three indexes,
 * dropping duplicates. Graph names are ignored: a store is one graph (the RDF merge of what was
 * added).
 *
 * @example
 * ```ts
 * const builder = new TripleStoreBuilder();
 * for (const quad of new Parser().parse(text)) builder.addQuad(quad);
 * const store = builder.build();
 * ```
 */
export class TripleStoreBuilder {
  readonly terms = new TermDictionary();
  readonly #maxBytes: number;
  #ids = new Uint32Array(INITIAL_TRIPLES * 3);
  #length = 0;
  #built = false;

  /**
   * `maxBytes`: what the graph may take in memory (see {@link bytes}), checked as triples arrive
   * and before the indexes are built; past it, `graph_too_large` is thrown and nothing is built.
   */
  constructor(options: { maxBytes?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Triples added so far (duplicates included). */
  get added(): number {
    return this.#length / 3;
  }

  /**
   * The bytes this builder holds so far: the triple buffer and the terms (2 bytes a character
   * plus what a V8 string and a map entry take, about 40 bytes a term).
   */
  get bytes(): number {
    return this.#ids.byteLength + this.terms.characters * 2 + this.terms.size * 40;
  }

  /** Adds a triple whose terms are in the engine id form of `@dcg/sparql-subset`. */
  addTerms(subject: string, predicate: string, object: string): void {
    const terms = this.terms;
    this.#push(terms.intern(subject), terms.intern(predicate), terms.intern(object));
  }

  /** Adds the triple of an RDF/JS quad (its graph is ignored). */
  addQuad(quad: Quad): void {
    this.addTerms(termToId(quad.subject), termToId(quad.predicate), termToId(quad.object));
  }

  /**
   * What the built store will take: the dictionary and 8 bytes a triple in each of the three
   * indexes, plus 4 bytes a term for each index's offsets.
   */
  get builtBytes(): number {
    const terms = this.terms;
    return terms.characters * 2 + terms.size * 40 + this.added * 24 + terms.size * 12;
  }

  /** Sorts the triples into the three indexes; the builder cannot be used afterwards. */
  build(): TripleStore {
    if (this.#built) throw new Error('TripleStoreBuilder.build() was already called');
    this.#built = true;
    this.#checkLimit(this.builtBytes);
    const ids = this.#ids;
    const n = this.#length / 3;
    const keys = this.terms.size + 2;
    this.#ids = new Uint32Array(0);
    // Least significant key first, each pass stable: (s, p, o) order after sorting by o, p, s.
    let perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) perm[i] = i;
    let spare = new Uint32Array(n);
    const counts = new Uint32Array(keys + 1);
    const pass = (position: 0 | 1 | 2, length: number): Uint32Array => {
      countingSort(ids, position, perm, spare, length, counts);
      const sorted = spare;
      spare = perm;
      perm = sorted;
      return counts;
    };
    pass(2, n);
    pass(1, n);
    pass(0, n);
    // Duplicates are now adjacent.
    let m = 0;
    let ps = 0;
    let pp = 0;
    let po = 0;
    for (let i = 0; i < n; i++) {
      const t = (perm[i] as number) * 3;
      const s = ids[t] as number;
      const p = ids[t + 1] as number;
      const o = ids[t + 2] as number;
      if (m > 0 && s === ps && p === pp && o === po) continue;
      perm[m++] = t / 3;
      ps = s;
      pp = p;
      po = o;
    }
    const spo = toIndex('spo', ids, perm, m, 0, 1, 2, keys);
    // A stable sort of (s, p, o) by o gives (o, s, p); of that by p gives (p, o, s).
    pass(2, m);
    const osp = toIndex('osp', ids, perm, m, 2, 0, 1, keys);
    pass(1, m);
    const pos = toIndex('pos', ids, perm, m, 1, 2, 0, keys);
    return new TripleStore(this.terms, spo, pos, osp);
  }

  #push(s: number, p: number, o: number): void {
    if (this.#built) throw new Error('TripleStoreBuilder.build() was already called');
    let ids = this.#ids;
    const at = this.#length;
    if (at + 3 > ids.length) {
      this.#checkLimit(this.bytes + ids.byteLength);
      const grown = new Uint32Array(ids.length * 2);
      grown.set(ids);
      this.#ids = ids = grown;
    }
    ids[at] = s;
    ids[at + 1] = p;
    ids[at + 2] = o;
    this.#length = at + 3;
    // The terms grow between buffer doublings: checked every 65,536 triples.
    if (at % 196_608 === 0 && at > 0) this.#checkLimit(this.bytes);
  }

  #checkLimit(bytes: number): void {
    if (bytes <= this.#maxBytes) return;
    this.#built = true;
    this.#ids = new Uint32Array(0);
    throw new KnowledgeGraphError(
      'graph_too_large',
      `the graph needs more than the ${this.#maxBytes} bytes of memory a graph may take (after ${this.added.toLocaleString('en')} triples); nothing was changed`,
    );
  }
}

/** Stable counting sort of the first `length` triple numbers in `from` by one position, into `to`. */
function countingSort(
  ids: Uint32Array,
  position: number,
  from: Uint32Array,
  to: Uint32Array,
  length: number,
  counts: Uint32Array,
): void {
  counts.fill(0);
  for (let i = 0; i < length; i++) {
    const key = ids[(from[i] as number) * 3 + position] as number;
    counts[key + 1] = (counts[key + 1] as number) + 1;
  }
  for (let k = 1; k < counts.length; k++)
    counts[k] = (counts[k] as number) + (counts[k - 1] as number);
  // counts[k] is now where key k starts; it advances as rows are placed.
  for (let i = 0; i < length; i++) {
    const t = from[i] as number;
    const key = ids[t * 3 + position] as number;
    const at = counts[key] as number;
    to[at] = t;
    counts[key] = at + 1;
  }
}

/** The compressed sparse row index of triples sorted by positions (a, b, c). */
function toIndex(
  order: TripleIndex['order'],
  ids: Uint32Array,
  perm: Uint32Array,
  length: number,
  a: number,
  b: number,
  c: number,
  keys: number,
): TripleIndex {
  const offsets = new Uint32Array(keys);
  const second = new Uint32Array(length);
  const third = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    const t = (perm[i] as number) * 3;
    const key = ids[t + a] as number;
    offsets[key + 1] = (offsets[key + 1] as number) + 1;
    second[i] = ids[t + b] as number;
    third[i] = ids[t + c] as number;
  }
  for (let k = 1; k < keys; k++) offsets[k] = (offsets[k] as number) + (offsets[k - 1] as number);
  return { order, offsets, second, third };
}
