/*
 * The SPARQL algebra this engine evaluates (a subset of SPARQL 1.1 §18). Terms are engine ids
 * (see term-ids.ts); a position in a triple pattern is either a constant id or a variable name.
 * Variables whose name starts with `_:` stand for query blank nodes and path links: they never show
 * in SELECT *.
 */

/** A constant term or a variable in a triple pattern. */
export type PatternTerm = { kind: 'const'; id: string } | { kind: 'var'; name: string };

export interface TriplePattern {
  subject: PatternTerm;
  predicate: PatternTerm;
  object: PatternTerm;
}

export type Expression =
  | { type: 'const'; id: string }
  | { type: 'var'; name: string }
  | { type: 'call'; op: string; args: Expression[] }
  | { type: 'in'; negated: boolean; arg: Expression; list: Expression[] }
  | { type: 'exists'; negated: boolean; pattern: AlgebraNode };

export type AlgebraNode =
  | { type: 'bgp'; patterns: TriplePattern[] }
  | { type: 'join'; left: AlgebraNode; right: AlgebraNode }
  | { type: 'leftjoin'; left: AlgebraNode; right: AlgebraNode; expression: Expression | undefined }
  | { type: 'filter'; input: AlgebraNode; expression: Expression }
  | { type: 'extend'; input: AlgebraNode; variable: string; expression: Expression }
  | { type: 'union'; left: AlgebraNode; right: AlgebraNode }
  | { type: 'minus'; left: AlgebraNode; right: AlgebraNode }
  | { type: 'values'; variables: string[]; rows: (string | undefined)[][] };

export interface OrderCondition {
  expression: Expression;
  descending: boolean;
}

/**
 * A query that passed the subset check, ready for `evaluate`. Build it with `parseQuery` only.
 *
 * @example
 * ```ts
 * const parsed = parseQuery('SELECT ?s { ?s ?p ?o } LIMIT 1');
 * if (parsed.success) console.log(parsed.query.form, parsed.query.variables); // SELECT ['s']
 * ```
 */
export interface CheckedQuery {
  readonly form: 'SELECT' | 'ASK';
  /** Projected variable names, in order (for ASK: empty). */
  readonly variables: readonly string[];
  readonly distinct: boolean;
  /** The WHERE clause, with projection expressions as `extend` nodes on top. */
  readonly where: AlgebraNode;
  readonly order: readonly OrderCondition[];
  readonly limit: number | undefined;
  readonly offset: number;
  /** The query text as given. */
  readonly text: string;
}
