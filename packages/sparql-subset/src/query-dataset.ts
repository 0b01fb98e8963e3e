/**
 * The order of the three positions in which a {@link QueryDatasetCursor} walks its triples:
 * `spo` sorts by subject, then predicate, then object, and so on.
 */
export type TripleOrder = 'spo' | 'pos' | 'osp';

/**
 * A position in the triples matching a pattern of a {@link QueryDataset}. `next()` moves to the
 * next triple and exposes its term ids as `s`, `p`, `o`; nothing is allocated per triple.
 */
export interface QueryDatasetCursor {
  next(): boolean;
  readonly s: number;
  readonly p: number;
  readonly o: number;
  /** The sort order of the triples this cursor walks (its first positions are the bound ones). */
  readonly order: TripleOrder;
  /** Skips up to `n` triples without reading them; returns how many were skipped. */
  skip(n: number): number;
  /**
   * Skips the triples after the current one that share its first `depth` positions in
   * {@link order} (1: the first position, 2: the first two). A rejected leading term costs one
   * jump instead of one test per triple.
   */
  skipGroup(depth: 1 | 2): void;
}

/**
 * A set of distinct triples whose terms are dictionary-encoded as positive integer ids: what the
 * evaluator of `@dcg/sparql-subset` reads, the way Oxigraph evaluates over its dataset trait.
 *
 * Terms cross this interface in the engine's id form: an IRI as itself, a blank node as `_:label`,
 * a literal as `"lex"`, `"lex"@lang` (lower-case tag) or `"lex"^^datatype`. In `match` and `count`,
 * `0` stands for "any term" at that position. A dataset never changes under a reader: a change
 * gives a new `version` (engines cache per version).
 *
 * @example
 * ```ts
 * const label = dataset.termId('http://www.w3.org/2004/02/skos/core#prefLabel');
 * console.log(dataset.count(0, label, 0)); // how many labels, from the index ranges
 * const cursor = dataset.match(0, label, 0);
 * while (cursor.next()) console.log(dataset.term(cursor.s), dataset.term(cursor.o));
 * ```
 */
export interface QueryDataset {
  /** Changes whenever the triples change. */
  readonly version: number;
  /** The number of distinct triples. */
  readonly size: number;
  /** The id of a term (engine id form), or 0 when the dataset holds no such term. */
  termId(term: string): number;
  /** The term (engine id form) of an id this dataset handed out. */
  term(id: number): string;
  /** How many triples match the pattern (0 = any), exactly, from the index ranges. */
  count(s: number, p: number, o: number): number;
  /** The triples matching the pattern (0 = any), in the order of the index that serves it. */
  match(s: number, p: number, o: number): QueryDatasetCursor;
}

/**
 * Whether a value implements {@link QueryDataset} (rather than RDF/JS `DatasetCore`).
 *
 * @example
 * ```ts
 * if (isQueryDataset(source)) console.log(source.size);
 * ```
 */
export function isQueryDataset(value: unknown): value is QueryDataset {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<QueryDataset>;
  return (
    typeof candidate.termId === 'function' &&
    typeof candidate.term === 'function' &&
    typeof candidate.count === 'function' &&
    typeof candidate.match === 'function'
  );
}
