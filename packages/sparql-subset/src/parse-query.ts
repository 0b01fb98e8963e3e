import * as sparqljs from 'sparqljs';
import type {
  AlgebraNode,
  CheckedQuery,
  Expression,
  OrderCondition,
  PatternTerm,
  TriplePattern,
} from './algebra';
import { writtenNumericForms } from './numeric-lexical-forms';
import { PROBLEM_CODES, type Problem, type ProblemCode } from './problem-codes';
import { checkQueryLimits, DEFAULT_QUERY_LIMITS, type QueryLimits } from './query-scan';
import { termToId } from './term-ids';

/**
 * Options of {@link parseQuery}.
 *
 * @example
 * ```ts
 * parseQuery('SELECT ?l { <c1> skos:prefLabel ?l }', { baseIRI: 'http://example.org/', prefixes: { skos: 'http://www.w3.org/2004/02/skos/core#' }, maxDepth: 8 });
 * ```
 */
export interface ParseOptions {
  /** Base IRI for relative IRIs (a BASE in the query wins). */
  baseIRI?: string;
  /** Prefixes known without a PREFIX declaration. */
  prefixes?: Record<string, string>;
  /** Deepest allowed nesting of group patterns and EXISTS (default 12). */
  maxDepth?: number;
  /**
   * Limits checked on the text before it is parsed (defaults: {@link DEFAULT_QUERY_LIMITS});
   * the ones given replace the defaults.
   */
  limits?: Partial<QueryLimits>;
}

/**
 * Result of {@link parseQuery}: the checked query, or every problem found.
 *
 * @example
 * ```ts
 * const result: ParseResult = parseQuery(text);
 * if (!result.success) return { status: 400, problems: result.problems };
 * ```
 */
export type ParseResult =
  | { success: true; query: CheckedQuery }
  | { success: false; problems: Problem[] };

/**
 * Default limit on the nesting of group patterns and EXISTS.
 *
 * @example
 * ```ts
 * parseQuery(text, { maxDepth: DEFAULT_MAX_DEPTH - 4 }); // stricter than the default
 * ```
 */
export const DEFAULT_MAX_DEPTH = 12;

/** Each name of `names` with the same value, as the entries of a lookup table. */
function each<T>(names: readonly string[], value: T): Record<string, T> {
  return Object.fromEntries(names.map((name) => [name, value]));
}

const ANY_NUMBER: [number, number] = [0, Number.POSITIVE_INFINITY];

/** Built-in functions of the subset, by sparqljs operator name, with their arity range. */
const SUPPORTED_OPERATORS: Record<string, [number, number]> = {
  ...each(
    ['!', 'UMINUS', 'UPLUS', 'bound', 'isiri', 'isuri', 'isblank', 'isliteral', 'isnumeric'],
    [1, 1],
  ),
  ...each(['str', 'lang', 'datatype', 'lcase', 'ucase', 'strlen'], [1, 1]),
  ...each(['abs', 'ceil', 'floor', 'round'], [1, 1]),
  ...each(['||', '&&', '=', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/'], [2, 2]),
  ...each(['langmatches', 'sameterm', 'strlang', 'strdt'], [2, 2]),
  ...each(['contains', 'strstarts', 'strends', 'strbefore', 'strafter'], [2, 2]),
  substr: [2, 3],
  if: [3, 3],
  concat: ANY_NUMBER,
  coalesce: ANY_NUMBER,
};

/** Why a SPARQL function outside the subset is left out, by sparqljs operator name. */
const WHY_UNSUPPORTED: Record<string, string> = {
  regex: 'regular expressions are backend-dependent and costly; use CONTAINS, STRSTARTS or STRENDS',
  replace: 'regular expressions are backend-dependent and costly',
  ...each(
    ['now', 'year', 'month', 'day', 'hours', 'minutes', 'seconds', 'timezone', 'tz'],
    'date/time functions are not in the subset',
  ),
  ...each(['md5', 'sha1', 'sha256', 'sha384', 'sha512'], 'hash functions are not in the subset'),
  ...each(['rand', 'uuid', 'struuid'], 'non-deterministic functions are not in the subset'),
  bnode: 'creating blank nodes is not in the subset',
  ...each(['iri', 'uri'], 'building IRIs is not in the subset'),
  encode_for_uri: 'internationalisation-heavy string functions are not in the subset',
};

interface Walk {
  problems: Problem[];
  text: string;
  maxDepth: number;
  fresh: number;
  depthReported: boolean;
  /** Numeric literals as written, where sparqljs normalised them. */
  numericForms: Map<string, string>;
}

/**
 * Parses a SPARQL query with sparqljs and checks that it stays inside the supported subset.
 * Never throws for bad input: every reason for rejection comes back as a {@link Problem}.
 *
 * @example
 * ```ts
 * const parsed = parseQuery('PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?l { <urn:c> skos:prefLabel ?l }');
 * if (!parsed.success) console.log(parsed.problems.map((p) => `${p.code}: ${p.message}`));
 * ```
 */
export function parseQuery(text: string, options: ParseOptions = {}): ParseResult {
  const optionProblems = checkOptions(text, options);
  if (optionProblems.length > 0) return { success: false, problems: optionProblems };
  // Parsing costs far more than answering a lookup, and services see the same queries again and
  // again: remember recent answers (a CheckedQuery is immutable, so sharing it is safe).
  const limits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
  // Too long: refused at once, before the text is copied into a cache key.
  if (text.length > limits.maxLength)
    return { success: false, problems: checkQueryLimits(text, limits) };
  // The limits are part of the key: a text found here already passed the size checks under them.
  const key = `${options.baseIRI ?? ''}\u0000${options.prefixes ? JSON.stringify(options.prefixes) : ''}\u0000${options.maxDepth ?? ''}\u0000${options.limits ? JSON.stringify(options.limits) : ''}\u0000${text}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached.success ? cached : { success: false, problems: cached.problems.map(copyProblem) };
  }
  // The parser's cost grows faster than the text with nesting: refuse by size first, in one pass.
  const limitProblems = checkQueryLimits(text, limits);
  if (limitProblems.length > 0) return { success: false, problems: limitProblems };
  const result = parseUncached(text, options);
  // The same CheckedQuery goes to every caller of this text: freeze it so that none can change it.
  if (result.success) deepFreeze(result.query);
  cache.set(key, result);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return result.success ? result : { success: false, problems: result.problems.map(copyProblem) };
}

const CACHE_SIZE = 512;

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

/** Callers get their own problems, so that changing one cannot change the cached answer. */
function copyProblem(problem: Problem): Problem {
  return problem.location ? { ...problem, location: { ...problem.location } } : { ...problem };
}
const cache = new Map<string, ParseResult>();

function parseUncached(text: string, options: ParseOptions): ParseResult {
  let ast: sparqljs.SparqlQuery;
  try {
    const parserOptions: sparqljs.ParserOptions = {};
    if (options.prefixes) parserOptions.prefixes = { ...options.prefixes };
    if (options.baseIRI) parserOptions.baseIRI = options.baseIRI;
    ast = new sparqljs.Parser(parserOptions).parse(text);
  } catch (error) {
    return { success: false, problems: [syntaxProblem(error, text)] };
  }
  // Operator chains (`1+1+…`) nest in the syntax tree without brackets: bound the tree's depth
  // before the recursive translation, planning and evaluation.
  const tooDeep = treeDepthAbove(ast, MAX_TREE_DEPTH);
  if (tooDeep)
    return {
      success: false,
      problems: [
        {
          code: PROBLEM_CODES.NESTING_TOO_DEEP,
          message: `The query's syntax tree is nested more than ${MAX_TREE_DEPTH} levels deep (long chains of operators nest too)`,
        },
      ],
    };
  const walk: Walk = {
    problems: [],
    text,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    fresh: 0,
    depthReported: false,
    numericForms: writtenNumericForms(text),
  };
  if (ast.type === 'update') {
    const kinds = ast.updates.map((u) => ('updateType' in u ? u.updateType : u.type).toUpperCase());
    report(
      walk,
      PROBLEM_CODES.UPDATE_NOT_SUPPORTED,
      `Updates are not supported (${kinds.join(', ') || 'update'}): the knowledge graph is read-only here`,
      kinds[0],
    );
    return { success: false, problems: walk.problems };
  }
  const query = translateQuery(ast, walk);
  if (walk.problems.length > 0 || query === undefined)
    return { success: false, problems: walk.problems };
  return { success: true, query };
}

/**
 * Deepest syntax tree (objects and arrays of sparqljs's output) accepted: far below what the
 * recursive translation, planning and evaluation can take, far above what queries need.
 */
const MAX_TREE_DEPTH = 1000;

/** Whether `root` has objects nested more than `limit` levels, found without recursion. */
function treeDepthAbove(root: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.depth > limit) return true;
    const { value, depth } = item;
    if (typeof value !== 'object' || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value))
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

function checkOptions(text: unknown, options: ParseOptions): Problem[] {
  const problems: Problem[] = [];
  const bad = (message: string) => problems.push({ code: PROBLEM_CODES.INVALID_OPTIONS, message });
  if (typeof text !== 'string') bad('The query must be a string');
  if (typeof options !== 'object' || options === null) {
    bad('Options must be an object');
    return problems;
  }
  if (options.baseIRI !== undefined && typeof options.baseIRI !== 'string')
    bad('baseIRI must be a string');
  /** The entries of an option that must be an object; none when it is not (reported). */
  const entriesOf = (name: string, value: unknown): [string, unknown][] => {
    if (typeof value === 'object' && value !== null) return Object.entries(value);
    bad(`${name} must be an object`);
    return [];
  };
  if (options.prefixes !== undefined)
    for (const [prefix, iri] of entriesOf('prefixes', options.prefixes))
      if (typeof iri !== 'string') bad(`prefix "${prefix}" must map to an IRI string`);
  if (
    options.maxDepth !== undefined &&
    !(Number.isInteger(options.maxDepth) && options.maxDepth > 0)
  )
    bad('maxDepth must be a positive integer');
  if (options.limits !== undefined)
    for (const [name, value] of entriesOf('limits', options.limits))
      if (!(name in DEFAULT_QUERY_LIMITS)) bad(`limits.${name} is not a known limit`);
      else if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0))
        bad(`limits.${name} must be a positive integer`);
  return problems;
}

function syntaxProblem(error: unknown, text: string): Problem {
  const message = error instanceof Error ? error.message : String(error);
  const hash = (
    error as { hash?: { loc?: { first_line?: number; last_column?: number }; text?: string } }
  ).hash;
  const lines = message.split('\n');
  const expected = lines.find((line) => line.startsWith('Expecting'));
  const summary = expected
    ? truncate(expected.replace(/^Expecting/, 'expected'), 240)
    : (lines[0] ?? message);
  const problem: Problem = {
    code: PROBLEM_CODES.SYNTAX_ERROR,
    message: `Syntax error: ${summary}`,
  };
  if (hash?.loc?.first_line !== undefined) {
    // jison reports the token before the offending one: find the offending token after it.
    const lines = text.split('\n');
    let offset = 0;
    for (let i = 0; i < hash.loc.first_line - 1 && i < lines.length; i++)
      offset += (lines[i]?.length ?? 0) + 1;
    offset += hash.loc.last_column ?? 0;
    const at = hash.text ? text.indexOf(hash.text, offset) : -1;
    const position = at >= 0 ? at : text.trimEnd().length;
    const before = text.slice(0, position).split('\n');
    problem.location = {
      line: before.length,
      column: (before[before.length - 1]?.length ?? 0) + 1,
    };
    problem.location.part = hash.text || 'end of query';
    return problem;
  }
  // Errors raised outside the grammar name what is wrong; point at its first use.
  const prefix = /^Unknown prefix: (\S*)/.exec(message)?.[1];
  const relative = /^Cannot resolve relative IRI (\S*)/.exec(message)?.[1];
  const part =
    prefix !== undefined ? `${prefix}:` : relative !== undefined ? `<${relative}>` : undefined;
  const at = part === undefined ? -1 : text.search(new RegExp(`(?<![\\w-])${escapeRegExp(part)}`));
  if (part !== undefined && at >= 0) {
    const before = text.slice(0, at).split('\n');
    problem.location = {
      line: before.length,
      column: (before[before.length - 1]?.length ?? 0) + 1,
      part,
    };
  }
  return problem;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Reports a problem, locating `part` (a keyword or snippet) in the query text when it can. */
function report(
  walk: Walk,
  code: ProblemCode,
  message: string,
  part?: string,
  locator?: RegExp,
): void {
  const problem: Problem = { code, message };
  if (part) {
    problem.location = { part };
    const keyword = part.split(/[\s(<]/)[0] ?? part;
    const at = locator
      ? walk.text.search(locator)
      : keyword
        ? walk.text.toLowerCase().indexOf(keyword.toLowerCase())
        : -1;
    if (at >= 0) {
      const before = walk.text.slice(0, at).split('\n');
      problem.location.line = before.length;
      problem.location.column = (before[before.length - 1]?.length ?? 0) + 1;
    }
  }
  walk.problems.push(problem);
}

function translateQuery(ast: sparqljs.Query, walk: Walk): CheckedQuery | undefined {
  if (ast.queryType === 'CONSTRUCT' || ast.queryType === 'DESCRIBE') {
    report(
      walk,
      PROBLEM_CODES.QUERY_FORM_NOT_SUPPORTED,
      `${ast.queryType} queries are not supported: use SELECT or ASK`,
      ast.queryType,
    );
  }
  if (ast.from && (ast.from.default.length > 0 || ast.from.named.length > 0)) {
    report(
      walk,
      PROBLEM_CODES.DATASET_NOT_SUPPORTED,
      'FROM / FROM NAMED are not supported: the default graph is always the union of all ingested sources',
      'FROM',
    );
  }
  const grouped =
    ast.queryType === 'SELECT' && (ast.group !== undefined || ast.having !== undefined);
  if (grouped)
    report(
      walk,
      PROBLEM_CODES.AGGREGATE_NOT_SUPPORTED,
      'GROUP BY and HAVING are not supported',
      ast.group ? 'GROUP BY' : 'HAVING',
    );
  let where = translateGroup(ast.where ?? [], walk, 1);
  if (ast.values && ast.values.length > 0) where = join(where, translateValues(ast.values, walk));
  if (ast.queryType !== 'SELECT' && ast.queryType !== 'ASK') return undefined;

  const variables: string[] = [];
  if (ast.queryType === 'SELECT') {
    const projection = ast.variables;
    const star =
      projection.length === 1 &&
      !('termType' in projection[0]! && projection[0].termType === 'Variable') &&
      !('expression' in projection[0]!);
    if (star) {
      variables.push(...visibleVariables(where));
    } else {
      for (const item of projection as (sparqljs.VariableTerm | sparqljs.VariableExpression)[]) {
        if ('expression' in item) {
          const expression = translateExpression(item.expression, walk, 1);
          if (variables.includes(item.variable.value) || inScope(where, item.variable.value))
            report(
              walk,
              PROBLEM_CODES.SYNTAX_ERROR,
              `Variable ?${item.variable.value} is already in scope and cannot be bound by AS`,
              `?${item.variable.value}`,
            );
          if (expression)
            where = { type: 'extend', input: where, variable: item.variable.value, expression };
          variables.push(item.variable.value);
        } else {
          variables.push(item.value);
        }
      }
    }
  }
  const order: OrderCondition[] = [];
  if (ast.queryType === 'SELECT' && ast.order) {
    for (const condition of ast.order) {
      const expression = translateExpression(condition.expression, walk, 1);
      if (expression) order.push({ expression, descending: condition.descending === true });
    }
  }
  if (walk.problems.length > 0) return undefined;
  const select = ast.queryType === 'SELECT' ? ast : undefined;
  return {
    form: ast.queryType,
    variables,
    distinct: select?.distinct === true,
    where,
    order,
    limit: select?.limit,
    offset: select?.offset ?? 0,
    text: walk.text,
  };
}

const EMPTY: AlgebraNode = { type: 'bgp', patterns: [] };

function isEmpty(node: AlgebraNode): boolean {
  return node.type === 'bgp' && node.patterns.length === 0;
}

function join(left: AlgebraNode, right: AlgebraNode): AlgebraNode {
  if (isEmpty(left)) return right;
  if (isEmpty(right)) return left;
  if (left.type === 'bgp' && right.type === 'bgp')
    return { type: 'bgp', patterns: [...left.patterns, ...right.patterns] };
  return { type: 'join', left, right };
}

function checkDepth(walk: Walk, depth: number, part: string): boolean {
  if (depth <= walk.maxDepth) return true;
  if (!walk.depthReported) {
    walk.depthReported = true;
    report(
      walk,
      PROBLEM_CODES.NESTING_TOO_DEEP,
      `Group patterns are nested more than ${walk.maxDepth} levels deep`,
      part,
    );
  }
  return false;
}

/** SPARQL 1.1 §18.2.2.6: translation of a group graph pattern. */
function translateGroup(patterns: sparqljs.Pattern[], walk: Walk, depth: number): AlgebraNode {
  const { node, filter } = translateGroupParts(patterns, walk, depth);
  return filter ? { type: 'filter', input: node, expression: filter } : node;
}

function translateGroupParts(
  patterns: sparqljs.Pattern[],
  walk: Walk,
  depth: number,
): { node: AlgebraNode; filter: Expression | undefined } {
  if (!checkDepth(walk, depth, '{')) return { node: EMPTY, filter: undefined };
  let node: AlgebraNode = EMPTY;
  const filters: Expression[] = [];
  for (const pattern of patterns) {
    switch (pattern.type) {
      case 'bgp':
        node = join(node, { type: 'bgp', patterns: translateTriples(pattern.triples, walk) });
        break;
      case 'filter': {
        const expression = translateExpression(pattern.expression, walk, depth);
        if (expression) filters.push(expression);
        break;
      }
      case 'optional': {
        // Only the OPTIONAL group's own filters become the left join's condition (§18.2.2.6).
        const inner = translateGroupParts(pattern.patterns, walk, depth + 1);
        node = { type: 'leftjoin', left: node, right: inner.node, expression: inner.filter };
        break;
      }
      case 'union': {
        const branches = pattern.patterns.map((branch) =>
          branch.type === 'group'
            ? translateGroup(branch.patterns, walk, depth + 1)
            : translateGroup([branch], walk, depth + 1),
        );
        let union = branches[0] ?? EMPTY;
        for (const branch of branches.slice(1))
          union = { type: 'union', left: union, right: branch };
        node = join(node, union);
        break;
      }
      case 'group':
        node = join(node, translateGroup(pattern.patterns, walk, depth + 1));
        break;
      case 'minus':
        node = {
          type: 'minus',
          left: node,
          right: translateGroup(pattern.patterns, walk, depth + 1),
        };
        break;
      case 'bind': {
        const expression = translateExpression(pattern.expression, walk, depth);
        const variable = pattern.variable.value;
        if (inScope(node, variable))
          report(
            walk,
            PROBLEM_CODES.SYNTAX_ERROR,
            `BIND: variable ?${variable} is already in scope`,
            `?${variable}`,
          );
        if (expression) node = { type: 'extend', input: node, variable, expression };
        break;
      }
      case 'values':
        node = join(node, translateValues(pattern.values, walk));
        break;
      case 'service':
        report(
          walk,
          PROBLEM_CODES.SERVICE_NOT_SUPPORTED,
          'SERVICE (federated query) is not supported: use the passthrough interface of the source',
          'SERVICE',
        );
        break;
      case 'graph':
        report(
          walk,
          PROBLEM_CODES.GRAPH_NOT_SUPPORTED,
          'GRAPH is not supported: all ingested graphs form one default graph',
          'GRAPH',
        );
        break;
      case 'query':
        report(
          walk,
          PROBLEM_CODES.SUBQUERY_NOT_SUPPORTED,
          'Subqueries (SELECT inside WHERE) are not supported',
          'SELECT',
        );
        break;
      default:
        report(
          walk,
          PROBLEM_CODES.SYNTAX_ERROR,
          `Unsupported pattern ${(pattern as { type: string }).type}`,
        );
    }
  }
  if (filters.length === 0) return { node, filter: undefined };
  let expression = filters[0] as Expression;
  for (const next of filters.slice(1))
    expression = { type: 'call', op: '&&', args: [expression, next] };
  return { node, filter: expression };
}

/** In-scope variables of a pattern, in order of first appearance (SELECT *). */
export function visibleVariables(node: AlgebraNode): string[] {
  const out = new Set<string>();
  const visit = (n: AlgebraNode): void => {
    switch (n.type) {
      case 'bgp':
        for (const p of n.patterns)
          for (const t of [p.subject, p.predicate, p.object])
            if (t.kind === 'var' && !t.name.startsWith('_:')) out.add(t.name);
        return;
      case 'join':
      case 'leftjoin':
      case 'union':
        visit(n.left);
        visit(n.right);
        return;
      case 'minus':
        visit(n.left);
        return;
      case 'filter':
        visit(n.input);
        return;
      case 'extend':
        visit(n.input);
        out.add(n.variable);
        return;
      case 'values':
        for (const v of n.variables) out.add(v);
        return;
    }
  };
  visit(node);
  return [...out];
}

function inScope(node: AlgebraNode, variable: string): boolean {
  switch (node.type) {
    case 'bgp':
      return node.patterns.some((p) =>
        [p.subject, p.predicate, p.object].some((t) => t.kind === 'var' && t.name === variable),
      );
    case 'join':
    case 'leftjoin':
    case 'union':
      return inScope(node.left, variable) || inScope(node.right, variable);
    case 'minus':
      return inScope(node.left, variable);
    case 'filter':
      return inScope(node.input, variable);
    case 'extend':
      return node.variable === variable || inScope(node.input, variable);
    case 'values':
      return node.variables.includes(variable);
  }
}

function translateValues(rows: sparqljs.ValuePatternRow[], walk: Walk): AlgebraNode {
  const variables: string[] = [];
  for (const row of rows)
    for (const key of Object.keys(row))
      if (!variables.includes(key.slice(1))) variables.push(key.slice(1));
  const table = rows.map((row) =>
    variables.map((name) => {
      const term = row[`?${name}`];
      return term ? constantId(term as sparqljs.Term, walk) : undefined;
    }),
  );
  return { type: 'values', variables, rows: table };
}

/** The engine id of a constant term; undefined (reported) for a quoted triple. */
function constantId(term: sparqljs.Term, walk: Walk): string | undefined {
  if (term.termType === 'Quad') {
    report(
      walk,
      PROBLEM_CODES.QUOTED_TRIPLE_NOT_SUPPORTED,
      'Quoted triples (RDF-star) are not supported',
      '<<',
    );
    return undefined;
  }
  return literalId(term, walk);
}

const NUMERIC_DATATYPES = new Set([
  'http://www.w3.org/2001/XMLSchema#integer',
  'http://www.w3.org/2001/XMLSchema#decimal',
  'http://www.w3.org/2001/XMLSchema#double',
]);

function literalId(term: sparqljs.Term, walk: Walk): string {
  if (term.termType === 'Literal' && NUMERIC_DATATYPES.has(term.datatype.value)) {
    const written = walk.numericForms.get(term.value);
    if (written !== undefined) return `"${written}"^^${term.datatype.value}`;
  }
  return termToId(term);
}

function patternTerm(term: sparqljs.Term, walk: Walk): PatternTerm {
  if (term.termType === 'Variable') {
    return { kind: 'var', name: term.value };
  }
  if (term.termType === 'BlankNode') return { kind: 'var', name: `_:${term.value}` };
  return { kind: 'const', id: constantId(term, walk) ?? '' };
}

function translateTriples(triples: sparqljs.Triple[], walk: Walk): TriplePattern[] {
  const out: TriplePattern[] = [];
  for (const triple of triples) {
    const subject = patternTerm(triple.subject as sparqljs.Term, walk);
    const object = patternTerm(triple.object as sparqljs.Term, walk);
    translatePath(
      subject,
      triple.predicate as sparqljs.Term | sparqljs.PropertyPath,
      object,
      out,
      walk,
    );
  }
  return out;
}

/** Sequence (`/`) and inverse (`^`) paths are plain joins; every other path is rejected. */
function translatePath(
  subject: PatternTerm,
  predicate: sparqljs.Term | sparqljs.PropertyPath,
  object: PatternTerm,
  out: TriplePattern[],
  walk: Walk,
): void {
  if (!('type' in predicate)) {
    out.push({ subject, predicate: patternTerm(predicate, walk), object });
    return;
  }
  if (predicate.pathType === '^' && predicate.items.length === 1) {
    translatePath(
      object,
      predicate.items[0] as sparqljs.Term | sparqljs.PropertyPath,
      subject,
      out,
      walk,
    );
    return;
  }
  if (predicate.pathType === '/') {
    let from = subject;
    predicate.items.forEach((item, index) => {
      const to: PatternTerm =
        index === predicate.items.length - 1
          ? object
          : { kind: 'var', name: `_:path${walk.fresh++}` };
      translatePath(from, item as sparqljs.Term | sparqljs.PropertyPath, to, out, walk);
      from = to;
    });
    return;
  }
  const why =
    predicate.pathType === '*' || predicate.pathType === '+'
      ? 'arbitrary-length property paths need transitive closure'
      : 'alternative, negated and optional property paths are not in the subset';
  report(
    walk,
    PROBLEM_CODES.PROPERTY_PATH_NOT_SUPPORTED,
    `Property path "${predicate.pathType}" is not supported: ${why}`,
    predicate.pathType,
    PATH_LOCATORS[predicate.pathType],
  );
}

/** Where a path operator is written: right after an IRI, a prefixed name or `)`. */
const PATH_LOCATORS: Record<string, RegExp> = {
  '*': /(?<=[>\w)])\*(?!\w)/,
  '+': /(?<=[>\w)])\+(?!\w)/,
  '?': /(?<=[>\w)])\?(?![\w$])/,
  '|': /(?<!\|)\|(?!\|)/,
  '!': /!\s*(?=[<(^]|[\w-]*:)/,
};

function translateExpression(
  expression: sparqljs.Expression,
  walk: Walk,
  depth: number,
): Expression | undefined {
  if (Array.isArray(expression)) {
    report(walk, PROBLEM_CODES.SYNTAX_ERROR, 'Unexpected expression list');
    return undefined;
  }
  if ('termType' in expression) {
    if (expression.termType === 'Variable') return { type: 'var', name: expression.value };
    const id = constantId(expression, walk);
    return id === undefined ? undefined : { type: 'const', id };
  }
  switch (expression.type) {
    case 'aggregate':
      report(
        walk,
        PROBLEM_CODES.AGGREGATE_NOT_SUPPORTED,
        `Aggregate ${expression.aggregation.toUpperCase()} is not supported`,
        expression.aggregation.toUpperCase(),
      );
      return undefined;
    case 'functionCall': {
      const fn = expression.function;
      const name = typeof fn === 'string' ? fn : fn.value;
      report(
        walk,
        PROBLEM_CODES.FUNCTION_NOT_SUPPORTED,
        `Function <${name}> is not supported: extension functions and casts are not in the subset`,
        name.split(/[#/]/).pop() ?? name,
      );
      return undefined;
    }
    case 'operation':
      return translateOperation(expression, walk, depth);
    default:
      report(
        walk,
        PROBLEM_CODES.SYNTAX_ERROR,
        `Unsupported expression ${(expression as { type: string }).type}`,
      );
      return undefined;
  }
}

function translateOperation(
  expression: sparqljs.OperationExpression,
  walk: Walk,
  depth: number,
): Expression | undefined {
  const op = expression.operator;
  if (op === 'exists' || op === 'notexists') {
    if (!checkDepth(walk, depth + 1, op === 'exists' ? 'EXISTS' : 'NOT EXISTS')) return undefined;
    const group = expression.args[0] as unknown as sparqljs.Pattern;
    const patterns = group.type === 'group' ? group.patterns : [group];
    const before = walk.problems.length;
    const pattern = translateGroup(patterns, walk, depth + 1);
    return walk.problems.length > before
      ? undefined
      : { type: 'exists', negated: op === 'notexists', pattern };
  }
  if (op === 'in' || op === 'notin') {
    const arg = translateExpression(expression.args[0] as sparqljs.Expression, walk, depth);
    const list = (expression.args[1] as unknown as sparqljs.Expression[]).map((item) =>
      translateExpression(item, walk, depth),
    );
    if (!arg || list.some((item) => item === undefined)) return undefined;
    return { type: 'in', negated: op === 'notin', arg, list: list as Expression[] };
  }
  const arity = SUPPORTED_OPERATORS[op];
  if (!arity) {
    const why = WHY_UNSUPPORTED[op] ?? 'it is outside the supported subset';
    report(
      walk,
      PROBLEM_CODES.FUNCTION_NOT_SUPPORTED,
      `Function ${op.toUpperCase()} is not supported: ${why}`,
      op.toUpperCase(),
    );
    return undefined;
  }
  const args = expression.args.map((arg) =>
    translateExpression(arg as sparqljs.Expression, walk, depth),
  );
  if (args.length < arity[0] || args.length > arity[1]) {
    report(
      walk,
      PROBLEM_CODES.SYNTAX_ERROR,
      `${op.toUpperCase()} takes ${arity[0]}–${arity[1]} arguments, got ${args.length}`,
      op.toUpperCase(),
    );
    return undefined;
  }
  if (args.some((arg) => arg === undefined)) return undefined;
  return { type: 'call', op, args: args as Expression[] };
}
