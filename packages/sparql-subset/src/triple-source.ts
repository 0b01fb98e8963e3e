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
}

/** Distinct triples matching a pattern, over the union of all graphs of all datasets. */
export interface TripleSource {
  open(
    subject: string | undefined,
    predicate: string | undefined,
    object: string | undefined,
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
 * Listing the keys of a large index level (Object.keys) costs as much as answering a whole query,
 * so levels keep their key lists per store. n3 invalidates `_size` on every add (null) and remove
 * (decrement): a `_size` different from the one recorded means the store changed, and the lists are
 * dropped. Recording needs `store.size`, a full count when `_size` is null, so it is only done when
 * a scan meets a level large enough to be worth it; point lookups never pay for it.
 */
const keyCaches = new WeakMap<object, { size: number; keys: KeyCache }>();
const CACHE_LEVELS_FROM = 32;
const START_CACHE_FROM = 1024;

class LevelKeys {
  private cache: KeyCache | undefined;

  constructor(private readonly store: N3StoreInternals) {
    const entry = keyCaches.get(store);
    if (entry !== undefined && store._size === entry.size) this.cache = entry.keys;
  }

  of(level: object): string[] {
    const cache = this.cache;
    if (cache !== undefined) {
      let keys = cache.get(level);
      if (keys === undefined) {
        keys = Object.keys(level);
        if (keys.length >= CACHE_LEVELS_FROM) cache.set(level, keys);
      }
      return keys;
    }
    const keys = Object.keys(level);
    if (keys.length >= START_CACHE_FROM && '_size' in this.store) {
      const size = this.store.size;
      if (typeof size === 'number') {
        const entry = { size, keys: new WeakMap<object, string[]>() };
        keyCaches.set(this.store, entry);
        entry.keys.set(level, keys);
        this.cache = entry.keys;
      }
    }
    return keys;
  }
}

/**
 * Walks the three-level indexes of an n3 Store, graph after graph. `order` says how the levels of
 * the chosen index map to s/p/o: 0 = s,p,o (subjects), 1 = p,o,s (predicates), 2 = o,s,p (objects).
 * Bound positions keep the caller's ids; only wildcard positions are looked up in the dictionary.
 */
class N3Cursor implements TripleCursor {
  s: string;
  p: string;
  o: string;
  private g = -1;
  private index: Index | undefined;
  private keys0: string[] = NO_KEYS;
  private i0 = 0;
  private level1: Record<string, Record<string, null>> | undefined;
  private keys1: string[] = NO_KEYS;
  private i1 = 0;
  private a = '';
  private b = '';
  private keys2: string[] = NO_KEYS;
  private i2 = 0;
  /** Which of s, p, o are wildcards. */
  private readonly free: number;

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
  ) {
    this.s = s ?? '';
    this.p = p ?? '';
    this.o = o ?? '';
    this.free = (s === undefined ? 1 : 0) | (p === undefined ? 2 : 0) | (o === undefined ? 4 : 0);
  }

  next(): boolean {
    for (;;) {
      if (this.i2 < this.keys2.length) {
        const c = this.keys2[this.i2++] as string;
        if (this.emit(c)) return true;
        continue;
      }
      if (this.i1 < this.keys1.length) {
        const b = this.keys1[this.i1++] as string;
        const level2 = (this.level1 as Record<string, Record<string, null>>)[b];
        if (level2 === undefined) continue;
        this.b = b;
        if (this.k2) {
          if (!(this.k2 in level2)) continue;
          this.i2 = this.keys2.length;
          if (this.emit(this.k2)) return true;
          continue;
        }
        this.keys2 = this.levels.of(level2);
        this.i2 = 0;
        continue;
      }
      if (this.i0 < this.keys0.length) {
        const a = this.keys0[this.i0++] as string;
        const level1 = (this.index as Index)[a];
        if (level1 === undefined) continue;
        this.a = a;
        this.level1 = level1;
        if (this.k1) {
          this.keys1 = level1[this.k1] === undefined ? NO_KEYS : [this.k1];
        } else this.keys1 = this.levels.of(level1);
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

  open(s: string | undefined, p: string | undefined, o: string | undefined): TripleCursor {
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
    if (si && oi) return new N3Cursor(graphs, entities, 2, oi, si, pi, cache, s, p, o);
    if (si) return new N3Cursor(graphs, entities, 0, si, pi, oi, cache, s, p, o);
    if (pi) return new N3Cursor(graphs, entities, 1, pi, oi, si, cache, s, p, o);
    if (oi) return new N3Cursor(graphs, entities, 2, oi, si, pi, cache, s, p, o);
    return new N3Cursor(graphs, entities, 0, '', '', '', cache, s, p, o);
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

  open(s: string | undefined, p: string | undefined, o: string | undefined): TripleCursor {
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

  open(s: string | undefined, p: string | undefined, o: string | undefined): TripleCursor {
    const sources = this.sources;
    let i = 0;
    let inner = (sources[0] as TripleSource).open(s, p, o);
    const cursor: TripleCursor = {
      s: '',
      p: '',
      o: '',
      next() {
        for (;;) {
          if (!inner.next()) {
            if (++i >= sources.length) return false;
            inner = (sources[i] as TripleSource).open(s, p, o);
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
    'INVALID_SOURCE',
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
