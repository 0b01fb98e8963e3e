import type * as RDF from '@rdfjs/types';
import { SparqlSubsetError } from './sparql-subset-error';
import { idToTerm, termToId } from './term-ids';

/**
 * What `evaluate` reads: an n3 `Store`, any RDF/JS `DatasetCore`, or an array of them whose union
 * (RDF merge, every graph of every dataset) is the default graph.
 *
 * @example
 * ```ts
 * const source: QuerySource = [storeOfSourceA, storeOfSourceB];
 * ```
 */
export type QuerySource = RDF.DatasetCore | readonly RDF.DatasetCore[];

/**
 * A position in the triples matching a pattern. `next()` moves to the next triple and exposes it
 * as `s`, `p`, `o` (engine ids); nothing is allocated per triple, which keeps scans cheap.
 */
export interface TripleCursor {
  next(): boolean;
  s: string;
  p: string;
  o: string;
  /**
   * Set when `next()` returned false only to hand control back (many keys were rejected by
   * {@link KeyTests} in a row and `interrupt` said so): the cursor is not exhausted, call `next()`
   * again later. The caller clears it.
   */
  suspended?: boolean;
  /**
   * Skips up to `n` triples without reading their terms, where the index allows it cheaply;
   * returns how many were skipped (possibly 0). Absent or partial: the caller skips the rest.
   */
  skip?(n: number): number;
}

/**
 * Tests on single terms at the wildcard positions of a pattern, applied by the cursor as early as
 * its index allows: on an n3 Store a rejected object of a `p o s` index drops all its subjects at
 * once. A triple is matched only when every test given for its terms passes.
 */
export interface KeyTests {
  s?: ((id: string) => boolean) | undefined;
  p?: ((id: string) => boolean) | undefined;
  o?: ((id: string) => boolean) | undefined;
  /** Read after each rejected term: true suspends the cursor (see {@link TripleCursor.suspended}). */
  interrupt?: (() => boolean) | undefined;
}

/** Distinct triples matching a pattern, over the union of all graphs of all datasets. */
export interface TripleSource {
  open(
    subject: string | undefined,
    predicate: string | undefined,
    object: string | undefined,
    tests?: KeyTests,
  ): TripleCursor;
  has(subject: string, predicate: string, object: string): boolean;
  /** Whether any triple matches (wildcards allowed), without listing them. */
  any(
    subject: string | undefined,
    predicate: string | undefined,
    object: string | undefined,
  ): boolean;
}

type Index = Record<string, Record<string, Record<string, null>>>;
interface GraphIndexes {
  subjects: Index;
  predicates: Index;
  objects: Index;
}
interface N3StoreInternals {
  _size?: number | null;
  readonly size?: number;
  _graphs: Record<string, GraphIndexes | undefined>;
  _entityIndex: { _ids: Record<string, number | undefined>; _entities: Record<string, string> };
}

function isN3Store(value: unknown): value is N3StoreInternals {
  const candidate = value as Partial<N3StoreInternals> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate._graphs === 'object' &&
    typeof candidate._entityIndex?._ids === 'object' &&
    typeof candidate._entityIndex._entities === 'object'
  );
}

function hasIn(graph: GraphIndexes, s: string, p: string, o: string): boolean {
  const level1 = graph.subjects[s];
  if (level1 === undefined) return false;
  const level2 = level1[p];
  return level2 !== undefined && o in level2;
}

const EMPTY_CURSOR: TripleCursor = { next: () => false, s: '', p: '', o: '' };

const EMPTY_SOURCE: TripleSource = {
  open: () => EMPTY_CURSOR,
  has: () => false,
  any: () => false,
};

const NO_KEYS: string[] = [];

type KeyCache = WeakMap<object, string[]>;

/**
 * A large second index level with all its third-level keys laid out in one array: the keys under
 * `keys1[j]` are `keys2[starts[j]..starts[j + 1])`. Scanning it reads arrays only (no key list
 * per entry), and `starts` counts triples, so an OFFSET skips whole entries by binary search.
 */
interface FlatLevel {
  keys1: string[];
  starts: Int32Array;
  keys2: string[];
}

interface CacheEntry {
  size: number;
  keys: KeyCache;
  flats: WeakMap<object, FlatLevel>;
}

/**
 * Listing the keys of a large index level (Object.keys) costs as much as answering a whole query,
 * so levels keep their key lists per store. n3 invalidates `_size` on every add (null) and remove
 * (decrement): a `_size` different from the one recorded means the store changed, and the lists are
 * dropped. Recording needs `store.size`, a full count when `_size` is null, so it is only done when
 * a scan meets a level large enough to be worth it; point lookups never pay for it.
 */
const keyCaches = new WeakMap<object, CacheEntry>();

/**
 * `_size` alone can come back to a recorded value after changes (an add, a size read, a remove),
 * so a store whose key lists are cached also forgets them on every mutation. Every n3 mutation
 * goes through `addQuad`, `removeQuad` or `addAll` (which merges another store's indexes).
 */
const watchedStores = new WeakSet<object>();
const MUTATORS = ['addQuad', 'removeQuad', 'addAll'] as const;

function forgetCacheOnMutation(store: object): void {
  if (watchedStores.has(store)) return;
  watchedStores.add(store);
  const methods = store as Record<string, unknown>;
  for (const name of MUTATORS) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    Object.defineProperty(store, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        keyCaches.delete(store);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  }
}
const CACHE_LEVELS_FROM = 32;
const START_CACHE_FROM = 1024;
/** Second levels with at least this many keys are flattened (see {@link FlatLevel}). */
const FLAT_FROM = 1024;

class LevelKeys {
  private cache: CacheEntry | undefined;

  constructor(private readonly store: N3StoreInternals) {
    const entry = keyCaches.get(store);
    if (entry !== undefined && store._size === entry.size) this.cache = entry;
  }

  of(level: object): string[] {
    const cache = this.cache;
    if (cache !== undefined) {
      let keys = cache.keys.get(level);
      if (keys === undefined) {
        keys = Object.keys(level);
        if (keys.length >= CACHE_LEVELS_FROM) cache.keys.set(level, keys);
      }
      return keys;
    }
    const keys = Object.keys(level);
    if (keys.length >= START_CACHE_FROM && '_size' in this.store) {
      const size = this.store.size;
      if (typeof size === 'number') {
        const entry: CacheEntry = { size, keys: new WeakMap(), flats: new WeakMap() };
        forgetCacheOnMutation(this.store);
        keyCaches.set(this.store, entry);
        entry.keys.set(level, keys);
        this.cache = entry;
      }
    }
    return keys;
  }

  /** The flattened form of a large second level, built once per store state; else undefined. */
  flat(level1: Record<string, Record<string, null>>, keys1: string[]): FlatLevel | undefined {
    const cache = this.cache;
    if (cache === undefined || keys1.length < FLAT_FROM) return undefined;
    let flat = cache.flats.get(level1);
    if (flat === undefined) {
      const starts = new Int32Array(keys1.length + 1);
      const keys2: string[] = [];
      for (let j = 0; j < keys1.length; j++) {
        const level2 = level1[keys1[j] as string];
        if (level2 !== undefined) for (const key in level2) keys2.push(key);
        starts[j + 1] = keys2.length;
      }
      flat = { keys1, starts, keys2 };
      cache.flats.set(level1, flat);
    }
    return flat;
  }
}

/**
 * Walks the three-level indexes of an n3 Store, graph after graph. `order` says how the levels of
 * the chosen index map to s/p/o: 0 = s,p,o (subjects), 1 = p,o,s (predicates), 2 = o,s,p (objects).
 * Bound positions keep the caller's ids; only wildcard positions are looked up in the dictionary.
 * The third-level keys of the current entry are `keys2[i2..end2)`.
 */
class N3Cursor implements TripleCursor {
  s: string;
  p: string;
  o: string;
  suspended = false;
  private g = -1;
  private index: Index | undefined;
  private keys0: string[] = NO_KEYS;
  private i0 = 0;
  private level1: Record<string, Record<string, null>> | undefined;
  private keys1: string[] = NO_KEYS;
  private i1 = 0;
  private flat: FlatLevel | undefined;
  private a = '';
  private b = '';
  private keys2: string[] = NO_KEYS;
  private i2 = 0;
  private end2 = 0;
  private readonly one: string[] = [''];
  private readonly one1: string[] = [''];
  /** Which of s, p, o are wildcards. */
  private readonly free: number;
  /** Key tests per index level (on the store's numeric keys), from the caller's term tests. */
  private readonly test0: ((key: string) => boolean) | undefined;
  private readonly test1: ((key: string) => boolean) | undefined;
  private readonly test2: ((key: string) => boolean) | undefined;
  private readonly interrupt: (() => boolean) | undefined;

  constructor(
    private readonly graphs: GraphIndexes[],
    private readonly entities: Record<string, string>,
    private readonly order: 0 | 1 | 2,
    private readonly k0: string,
    private readonly k1: string,
    private readonly k2: string,
    private readonly levels: LevelKeys,
    s: string | undefined,
    p: string | undefined,
    o: string | undefined,
    tests: KeyTests | undefined,
  ) {
    this.s = s ?? '';
    this.p = p ?? '';
    this.o = o ?? '';
    this.free = (s === undefined ? 1 : 0) | (p === undefined ? 2 : 0) | (o === undefined ? 4 : 0);
    const onKey = (test: ((id: string) => boolean) | undefined, free: boolean) =>
      test === undefined || !free ? undefined : (key: string) => test(entities[key] as string);
    const ts = onKey(tests?.s, s === undefined);
    const tp = onKey(tests?.p, p === undefined);
    const to = onKey(tests?.o, o === undefined);
    this.test0 = order === 0 ? ts : order === 1 ? tp : to;
    this.test1 = order === 0 ? tp : order === 1 ? to : ts;
    this.test2 = order === 0 ? to : order === 1 ? ts : tp;
    this.interrupt = tests?.interrupt;
  }

  next(): boolean {
    for (;;) {
      while (this.i2 < this.end2) {
        const c = this.keys2[this.i2++] as string;
        if (this.test2 !== undefined && !this.test2(c)) {
          if (this.rejected()) return false;
          continue;
        }
        if (this.emit(c)) return true;
      }
      if (!this.refill()) return false;
    }
  }

  /** After a rejected key: whether to suspend (hand control back) now. */
  private rejected(): boolean {
    if (this.interrupt === undefined || !this.interrupt()) return false;
    this.suspended = true;
    return true;
  }

  /** Moves to the next entry with third-level keys; false at the end (or when suspended). */
  private refill(): boolean {
    for (;;) {
      if (this.i1 < this.keys1.length) {
        const j = this.i1++;
        const b = this.keys1[j] as string;
        const flat = this.flat;
        if (flat !== undefined) {
          if (this.test1 !== undefined && !this.test1(b)) {
            if (this.rejected()) return false;
            continue;
          }
          this.b = b;
          this.i2 = flat.starts[j] as number;
          this.end2 = flat.starts[j + 1] as number;
          if (this.i2 < this.end2) return true;
          continue;
        }
        const level2 = (this.level1 as Record<string, Record<string, null>>)[b];
        if (level2 === undefined) continue;
        if (this.test1 !== undefined && !this.test1(b)) {
          if (this.rejected()) return false;
          continue;
        }
        this.b = b;
        if (this.k2) {
          if (!(this.k2 in level2)) continue;
          this.one[0] = this.k2;
          this.keys2 = this.one;
        } else this.keys2 = this.levels.of(level2);
        this.i2 = 0;
        this.end2 = this.keys2.length;
        if (this.end2 > 0) return true;
        continue;
      }
      if (this.i0 < this.keys0.length) {
        const a = this.keys0[this.i0++] as string;
        const level1 = (this.index as Index)[a];
        if (level1 === undefined) continue;
        if (this.test0 !== undefined && !this.test0(a)) {
          if (this.rejected()) return false;
          continue;
        }
        this.a = a;
        this.level1 = level1;
        this.flat = undefined;
        if (this.k1) {
          if (level1[this.k1] === undefined) this.keys1 = NO_KEYS;
          else {
            this.one1[0] = this.k1;
            this.keys1 = this.one1;
          }
        } else {
          this.keys1 = this.levels.of(level1);
          if (!this.k2) {
            this.flat = this.levels.flat(level1, this.keys1);
            if (this.flat !== undefined) this.keys2 = this.flat.keys2;
          }
        }
        this.i1 = 0;
        continue;
      }
      if (++this.g >= this.graphs.length) return false;
      const graph = this.graphs[this.g] as GraphIndexes;
      const index =
        this.order === 0 ? graph.subjects : this.order === 1 ? graph.predicates : graph.objects;
      this.index = index;
      this.keys0 = this.k0
        ? index[this.k0] === undefined
          ? NO_KEYS
          : [this.k0]
        : this.levels.of(index);
      this.i0 = 0;
    }
  }

  skip(n: number): number {
    // Duplicates across graphs and term tests need every triple looked at.
    if (this.graphs.length !== 1 || this.test0 || this.test1 || this.test2) return 0;
    let skipped = 0;
    for (;;) {
      const room = this.end2 - this.i2;
      if (room >= n - skipped) {
        this.i2 += n - skipped;
        return n;
      }
      skipped += room;
      this.i2 = this.end2;
      const flat = this.flat;
      if (flat !== undefined && this.i1 < this.keys1.length) {
        const starts = flat.starts;
        const last = this.keys1.length;
        const from = starts[this.i1] as number;
        const target = from + (n - skipped);
        if (target >= (starts[last] as number)) {
          skipped += (starts[last] as number) - from;
          this.i1 = last;
        } else {
          // The entry holding triple number `target`: the last j with starts[j] <= target.
          let lo = this.i1;
          let hi = last;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if ((starts[mid] as number) <= target) lo = mid + 1;
            else hi = mid;
          }
          skipped += (starts[lo - 1] as number) - from;
          this.i1 = lo - 1;
        }
      }
      if (!this.refill()) return skipped;
    }
  }

  private emit(c: string): boolean {
    const order = this.order;
    const s = order === 0 ? this.a : order === 1 ? c : this.b;
    const p = order === 0 ? this.b : order === 1 ? this.a : c;
    const o = order === 0 ? c : order === 1 ? this.b : this.a;
    // A triple in several graphs counts once (RDF merge into the default graph).
    for (let g = 0; g < this.g; g++)
      if (hasIn(this.graphs[g] as GraphIndexes, s, p, o)) return false;
    const free = this.free;
    const entities = this.entities;
    if (free & 1) this.s = entities[s] as string;
    if (free & 2) this.p = entities[p] as string;
    if (free & 4) this.o = entities[o] as string;
    return true;
  }
}

/**
 * Reads an n3 Store through its numeric entity index (n3 ≥ 1.17 layout): no term objects are
 * created, and ids come straight from the store's own dictionary.
 */
class N3TripleSource implements TripleSource {
  private readonly levels: LevelKeys;
  /** The graphs as they were when evaluation started. */
  private readonly graphList: GraphIndexes[] = [];

  constructor(private readonly store: N3StoreInternals) {
    this.levels = new LevelKeys(store);
    for (const key in store._graphs) {
      const graph = store._graphs[key];
      if (graph) this.graphList.push(graph);
    }
  }

  has(s: string, p: string, o: string): boolean {
    const ids = this.store._entityIndex._ids;
    const si = ids[s];
    const pi = ids[p];
    const oi = ids[o];
    if (!si || !pi || !oi) return false;
    for (const graph of this.graphList)
      if (hasIn(graph, String(si), String(pi), String(oi))) return true;
    return false;
  }

  any(s: string | undefined, p: string | undefined, o: string | undefined): boolean {
    const ids = this.store._entityIndex._ids;
    const si = s === undefined ? '' : String(ids[s] ?? 0);
    const pi = p === undefined ? '' : String(ids[p] ?? 0);
    const oi = o === undefined ? '' : String(ids[o] ?? 0);
    if (si === '0' || pi === '0' || oi === '0') return false;
    // n3 removes emptied index levels, so a present path of bound keys means a matching triple.
    for (const graph of this.graphList) {
      if (si && pi && oi) {
        if (hasIn(graph, si, pi, oi)) return true;
      } else if (si && oi) {
        if (graph.objects[oi]?.[si] !== undefined) return true;
      } else if (si) {
        const level1 = graph.subjects[si];
        if (level1 !== undefined && (!pi || level1[pi] !== undefined)) return true;
      } else if (pi) {
        const level1 = graph.predicates[pi];
        if (level1 !== undefined && (!oi || level1[oi] !== undefined)) return true;
      } else if (oi) {
        if (graph.objects[oi] !== undefined) return true;
      } else {
        for (const _ in graph.subjects) return true;
      }
    }
    return false;
  }

  open(
    s: string | undefined,
    p: string | undefined,
    o: string | undefined,
    tests?: KeyTests,
  ): TripleCursor {
    const ids = this.store._entityIndex._ids;
    let si = '';
    let pi = '';
    let oi = '';
    if (s !== undefined) {
      const id = ids[s];
      if (!id) return EMPTY_CURSOR;
      si = String(id);
    }
    if (p !== undefined) {
      const id = ids[p];
      if (!id) return EMPTY_CURSOR;
      pi = String(id);
    }
    if (o !== undefined) {
      const id = ids[o];
      if (!id) return EMPTY_CURSOR;
      oi = String(id);
    }
    const graphs = this.graphList;
    const entities = this.store._entityIndex._entities;
    const cache = this.levels;
    // Pick the index whose first levels are bound, as n3 itself does.
    if (si && oi) return new N3Cursor(graphs, entities, 2, oi, si, pi, cache, s, p, o, tests);
    if (si) return new N3Cursor(graphs, entities, 0, si, pi, oi, cache, s, p, o, tests);
    if (pi) return new N3Cursor(graphs, entities, 1, pi, oi, si, cache, s, p, o, tests);
    if (oi) return new N3Cursor(graphs, entities, 2, oi, si, pi, cache, s, p, o, tests);
    return new N3Cursor(graphs, entities, 0, '', '', '', cache, s, p, o, tests);
  }
}

/** Any RDF/JS DatasetCore, through its public `match`. */
class DatasetTripleSource implements TripleSource {
  constructor(private readonly dataset: RDF.DatasetCore) {}

  has(s: string, p: string, o: string): boolean {
    for (const _ of this.dataset.match(
      idToTerm(s) as RDF.Quad_Subject,
      idToTerm(p) as RDF.Quad_Predicate,
      idToTerm(o) as RDF.Quad_Object,
    ))
      return true;
    return false;
  }

  any(s: string | undefined, p: string | undefined, o: string | undefined): boolean {
    return this.open(s, p, o).next();
  }

  open(
    s: string | undefined,
    p: string | undefined,
    o: string | undefined,
    tests?: KeyTests,
  ): TripleCursor {
    const testS = s === undefined ? tests?.s : undefined;
    const testP = p === undefined ? tests?.p : undefined;
    const testO = o === undefined ? tests?.o : undefined;
    const interrupt = tests?.interrupt;
    const quads = this.dataset
      .match(
        s === undefined ? null : (idToTerm(s) as RDF.Quad_Subject),
        p === undefined ? null : (idToTerm(p) as RDF.Quad_Predicate),
        o === undefined ? null : (idToTerm(o) as RDF.Quad_Object),
      )
      [Symbol.iterator]();
    const seen = new Set<string>();
    const cursor: TripleCursor = {
      s: '',
      p: '',
      o: '',
      next() {
        for (;;) {
          const next = quads.next();
          if (next.done) return false;
          const quad = next.value;
          const ts = termToId(quad.subject);
          const tp = termToId(quad.predicate);
          const to = termToId(quad.object);
          // Subjects and predicates hold no spaces, so this key is unambiguous.
          const key = `${ts} ${tp} ${to}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (
            (testS !== undefined && !testS(ts)) ||
            (testP !== undefined && !testP(tp)) ||
            (testO !== undefined && !testO(to))
          ) {
            if (interrupt?.()) {
              cursor.suspended = true;
              return false;
            }
            continue;
          }
          cursor.s = ts;
          cursor.p = tp;
          cursor.o = to;
          return true;
        }
      },
    };
    return cursor;
  }
}

/** The union of several sources; a triple found in an earlier source is not repeated. */
class UnionTripleSource implements TripleSource {
  constructor(private readonly sources: TripleSource[]) {}

  has(s: string, p: string, o: string): boolean {
    return this.sources.some((source) => source.has(s, p, o));
  }

  any(s: string | undefined, p: string | undefined, o: string | undefined): boolean {
    return this.sources.some((source) => source.any(s, p, o));
  }

  open(
    s: string | undefined,
    p: string | undefined,
    o: string | undefined,
    tests?: KeyTests,
  ): TripleCursor {
    const sources = this.sources;
    let i = 0;
    let inner = (sources[0] as TripleSource).open(s, p, o, tests);
    const cursor: TripleCursor = {
      s: '',
      p: '',
      o: '',
      next() {
        for (;;) {
          if (!inner.next()) {
            if (inner.suspended) {
              inner.suspended = false;
              cursor.suspended = true;
              return false;
            }
            if (++i >= sources.length) return false;
            inner = (sources[i] as TripleSource).open(s, p, o, tests);
            continue;
          }
          let duplicate = false;
          for (let j = 0; j < i && !duplicate; j++)
            duplicate = (sources[j] as TripleSource).has(inner.s, inner.p, inner.o);
          if (duplicate) continue;
          cursor.s = inner.s;
          cursor.p = inner.p;
          cursor.o = inner.o;
          return true;
        }
      },
    };
    return cursor;
  }
}

function single(dataset: unknown): TripleSource {
  if (isN3Store(dataset)) return new N3TripleSource(dataset);
  if (
    typeof dataset === 'object' &&
    dataset !== null &&
    typeof (dataset as RDF.DatasetCore).match === 'function'
  )
    return new DatasetTripleSource(dataset as RDF.DatasetCore);
  throw new SparqlSubsetError(
    'invalid_source',
    'The source must be an n3 Store, an RDF/JS DatasetCore or an array of them',
  );
}

/**
 * Wraps what the caller passed as a {@link TripleSource}.
 *
 * @example
 * ```ts
 * const triples = toTripleSource([storeA, storeB]);
 * const cursor = triples.open(undefined, 'http://www.w3.org/2004/02/skos/core#prefLabel', undefined);
 * while (cursor.next()) console.log(cursor.s, cursor.o);
 * ```
 */
export function toTripleSource(source: QuerySource): TripleSource {
  if (Array.isArray(source)) {
    const sources = (source as readonly unknown[]).map(single);
    // No sources yet: the default graph is empty, and every pattern simply has no match.
    if (sources.length === 0) return EMPTY_SOURCE;
    return sources.length === 1 ? (sources[0] as TripleSource) : new UnionTripleSource(sources);
  }
  return single(source);
}
