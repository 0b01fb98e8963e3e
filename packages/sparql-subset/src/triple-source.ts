import type * as RDF from '@rdfjs/types';
import { SparqlSubsetError } from './sparql-subset-error';
import { idToTerm, termToId } from './term-ids';

/** A triple as three engine ids: subject, predicate, object. */
export type Triple = [string, string, string];

/**
 * What `evaluate` reads: an n3 `Store`, any RDF/JS `DatasetCore`, or an array of them whose union
 * (RDF merge, every graph of every dataset) is the default graph.
 */
export type QuerySource = RDF.DatasetCore | readonly RDF.DatasetCore[];

/** Distinct triples matching a pattern, over the union of all graphs of all datasets. */
export interface TripleSource {
  match(
    subject: string | undefined,
    predicate: string | undefined,
    object: string | undefined,
  ): Iterable<Triple>;
  has(subject: string, predicate: string, object: string): boolean;
}

type Index = Record<string, Record<string, Record<string, null>>>;
interface GraphIndexes {
  subjects: Index;
  predicates: Index;
  objects: Index;
}
interface N3StoreInternals {
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

/**
 * Reads an n3 Store through its numeric entity index (n3 ≥ 1.17 layout): no term objects are
 * created, and ids come straight from the store's own dictionary.
 */
class N3TripleSource implements TripleSource {
  constructor(private readonly store: N3StoreInternals) {}

  private graphs(): GraphIndexes[] {
    const out: GraphIndexes[] = [];
    for (const key in this.store._graphs) {
      const graph = this.store._graphs[key];
      if (graph) out.push(graph);
    }
    return out;
  }

  has(s: string, p: string, o: string): boolean {
    const ids = this.store._entityIndex._ids;
    const si = ids[s];
    const pi = ids[p];
    const oi = ids[o];
    if (!si || !pi || !oi) return false;
    for (const graph of this.graphs())
      if (hasIn(graph, String(si), String(pi), String(oi))) return true;
    return false;
  }

  *match(s: string | undefined, p: string | undefined, o: string | undefined): Generator<Triple> {
    const ids = this.store._entityIndex._ids;
    let si = '';
    let pi = '';
    let oi = '';
    if (s !== undefined) {
      const id = ids[s];
      if (!id) return;
      si = String(id);
    }
    if (p !== undefined) {
      const id = ids[p];
      if (!id) return;
      pi = String(id);
    }
    if (o !== undefined) {
      const id = ids[o];
      if (!id) return;
      oi = String(id);
    }
    const graphs = this.graphs();
    const entities = this.store._entityIndex._entities;
    for (let g = 0; g < graphs.length; g++) {
      const graph = graphs[g] as GraphIndexes;
      const earlier = g === 0 ? undefined : graphs.slice(0, g);
      // Pick the index whose first levels are bound, as n3 itself does.
      if (si && oi) yield* scan(graph.objects, oi, si, pi, 2, entities, earlier);
      else if (si) yield* scan(graph.subjects, si, pi, oi, 0, entities, earlier);
      else if (pi) yield* scan(graph.predicates, pi, oi, si, 1, entities, earlier);
      else if (oi) yield* scan(graph.objects, oi, si, pi, 2, entities, earlier);
      else yield* scan(graph.subjects, si, pi, oi, 0, entities, earlier);
    }
  }
}

/**
 * Walks a three-level index. `order` says how its levels map to s/p/o: 0 = s,p,o (subjects),
 * 1 = p,o,s (predicates), 2 = o,s,p (objects). Keys '' are wildcards.
 */
function* scan(
  index: Index,
  k0: string,
  k1: string,
  k2: string,
  order: 0 | 1 | 2,
  entities: Record<string, string>,
  earlier: GraphIndexes[] | undefined,
): Generator<Triple> {
  const keys0 = k0 ? (index[k0] ? [k0] : []) : Object.keys(index);
  for (const a of keys0) {
    const level1 = index[a];
    if (!level1) continue;
    const keys1 = k1 ? (level1[k1] ? [k1] : []) : Object.keys(level1);
    for (const b of keys1) {
      const level2 = level1[b];
      if (!level2) continue;
      if (k2) {
        if (k2 in level2) {
          const triple = tripleOf(a, b, k2, order, entities, earlier);
          if (triple) yield triple;
        }
        continue;
      }
      for (const c in level2) {
        const triple = tripleOf(a, b, c, order, entities, earlier);
        if (triple) yield triple;
      }
    }
  }
}

function tripleOf(
  a: string,
  b: string,
  c: string,
  order: 0 | 1 | 2,
  entities: Record<string, string>,
  earlier: GraphIndexes[] | undefined,
): Triple | undefined {
  const s = order === 0 ? a : order === 1 ? c : b;
  const p = order === 0 ? b : order === 1 ? a : c;
  const o = order === 0 ? c : order === 1 ? b : a;
  // A triple in several graphs counts once (RDF merge into the default graph).
  if (earlier) for (const graph of earlier) if (hasIn(graph, s, p, o)) return undefined;
  return [entities[s] as string, entities[p] as string, entities[o] as string];
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

  *match(s: string | undefined, p: string | undefined, o: string | undefined): Generator<Triple> {
    const quads = this.dataset.match(
      s === undefined ? null : (idToTerm(s) as RDF.Quad_Subject),
      p === undefined ? null : (idToTerm(p) as RDF.Quad_Predicate),
      o === undefined ? null : (idToTerm(o) as RDF.Quad_Object),
    );
    const seen = new Set<string>();
    for (const quad of quads) {
      const triple: Triple = [
        termToId(quad.subject),
        termToId(quad.predicate),
        termToId(quad.object),
      ];
      // Subjects and predicates hold no spaces, so this key is unambiguous.
      const key = `${triple[0]} ${triple[1]} ${triple[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      yield triple;
    }
  }
}

/** The union of several sources; a triple found in an earlier source is not repeated. */
class UnionTripleSource implements TripleSource {
  constructor(private readonly sources: TripleSource[]) {}

  has(s: string, p: string, o: string): boolean {
    return this.sources.some((source) => source.has(s, p, o));
  }

  *match(s: string | undefined, p: string | undefined, o: string | undefined): Generator<Triple> {
    const sources = this.sources;
    for (let i = 0; i < sources.length; i++) {
      for (const triple of (sources[i] as TripleSource).match(s, p, o)) {
        let duplicate = false;
        for (let j = 0; j < i && !duplicate; j++)
          duplicate = (sources[j] as TripleSource).has(triple[0], triple[1], triple[2]);
        if (!duplicate) yield triple;
      }
    }
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
 * for (const [s, p, o] of triples.match(undefined, 'http://www.w3.org/2004/02/skos/core#prefLabel', undefined)) console.log(s, o);
 * ```
 */
export function toTripleSource(source: QuerySource): TripleSource {
  if (Array.isArray(source)) {
    const sources = (source as readonly unknown[]).map(single);
    return sources.length === 1 ? (sources[0] as TripleSource) : new UnionTripleSource(sources);
  }
  return single(source);
}
