import { idToTerm, type QueryDataset, type QueryDatasetCursor } from '@dcg/sparql-subset';
import {
  DataFactory,
  type Quad,
  type Quad_Object,
  type Quad_Predicate,
  type Quad_Subject,
} from 'n3';
import type { TermDictionary } from './term-dictionary';
import { IndexCursor, rangeOf, type TripleIndex } from './triple-index';

let versions = 0;

/** The next store version: unique within the process, increasing. */
export function nextStoreVersion(): number {
  return ++versions;
}

/**
 * An immutable, dictionary-encoded set of triples: every term stored once in a
 * {@link TermDictionary}, the triples as 32-bit ids in three sort orders (SPO, POS, OSP), each a
 * compressed sparse row index. Implements the {@link QueryDataset} that `@dcg/sparql-subset`
 * evaluates over. Built by a `TripleStoreBuilder`; a new graph is a new store with a new version.
 *
 * @example
 * ```ts
 * const builder = new TripleStoreBuilder();
 * builder.addTerms('http://example.org/a', 'http://www.w3.org/2000/01/rdf-schema#label', '"A"@en');
 * const store = builder.build();
 * await evaluate(parsed.query, store); // @dcg/sparql-subset
 * ```
 */
export class TripleStore implements QueryDataset {
  readonly version: number;

  constructor(
    readonly terms: TermDictionary,
    readonly spo: TripleIndex,
    readonly pos: TripleIndex,
    readonly osp: TripleIndex,
    version = nextStoreVersion(),
  ) {
    this.version = version;
  }

  get size(): number {
    return this.spo.second.length;
  }

  termId(term: string): number {
    return this.terms.id(term);
  }

  term(id: number): string {
    return this.terms.term(id);
  }

  count(s: number, p: number, o: number): number {
    this.#lookUp(s, p, o);
    const range = this.#range;
    return (range[1] as number) - (range[0] as number);
  }

  match(s: number, p: number, o: number): QueryDatasetCursor {
    const index = this.#lookUp(s, p, o);
    const range = this.#range;
    return new IndexCursor(index, range[0] as number, range[1] as number, this.#first);
  }

  /** The bytes the indexes take (the dictionary's strings not counted). */
  get indexBytes(): number {
    let bytes = 0;
    for (const index of [this.spo, this.pos, this.osp])
      bytes += index.offsets.byteLength + index.second.byteLength + index.third.byteLength;
    return bytes;
  }

  /** Every triple as an RDF/JS quad in the default graph, in subject order. */
  *quads(): IterableIterator<Quad> {
    const cursor = this.match(0, 0, 0);
    const terms = this.terms;
    while (cursor.next())
      yield DataFactory.quad(
        idToTerm(terms.term(cursor.s)) as Quad_Subject,
        idToTerm(terms.term(cursor.p)) as Quad_Predicate,
        idToTerm(terms.term(cursor.o)) as Quad_Object,
      );
  }

  /** The row range of the last {@link #lookUp}, and its bound first key (0 when free). */
  readonly #range = new Uint32Array(2);
  #first = 0;

  /** The index serving a pattern; its row range and first key go to `#range` and `#first`. */
  #lookUp(s: number, p: number, o: number): TripleIndex {
    // The bound positions must be the index's leading keys.
    const range = this.#range;
    if (s !== 0) {
      if (p === 0 && o !== 0) {
        rangeOf(this.osp, o, s, 0, range);
        this.#first = o;
        return this.osp;
      }
      rangeOf(this.spo, s, p, o, range);
      this.#first = s;
      return this.spo;
    }
    if (p !== 0) {
      rangeOf(this.pos, p, o, 0, range);
      this.#first = p;
      return this.pos;
    }
    if (o !== 0) {
      rangeOf(this.osp, o, 0, 0, range);
      this.#first = o;
      return this.osp;
    }
    rangeOf(this.spo, 0, 0, 0, range);
    this.#first = 0;
    return this.spo;
  }
}
