import { PROBLEM_CODES, type Problem } from './problem-codes';

/**
 * Limits checked on the query text before it is parsed. The parser's cost grows faster than the
 * text with nesting (10,000 nested groups keep it busy for a minute), and planning grows with the
 * number of OPTIONALs and UNIONs, so these are refused in one linear pass first.
 *
 * @example
 * ```ts
 * const limits: QueryLimits = { ...DEFAULT_QUERY_LIMITS, maxUnions: 32 };
 * ```
 */
export interface QueryLimits {
  /** Longest query text, in characters. */
  maxLength: number;
  /** Deepest nesting of brackets of any kind: `{ }`, `( )` and `[ ]` together. */
  maxNesting: number;
  /** Most UNION keywords in one query. */
  maxUnions: number;
  /** Most OPTIONAL keywords in one query. */
  maxOptionals: number;
}

/**
 * Default {@link QueryLimits}: generous for queries people and tools write, small enough that
 * parsing and planning stay in the order of 100 ms.
 *
 * @example
 * ```ts
 * parseQuery(text, { limits: { ...DEFAULT_QUERY_LIMITS, maxLength: 16_384 } });
 * ```
 */
export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({
  maxLength: 32_768,
  maxNesting: 32,
  maxUnions: 128,
  maxOptionals: 64,
});

/** The SPARQL 1.1 Update operations (a query never contains these words outside names). */
const UPDATE_KEYWORDS = new Set([
  'INSERT',
  'DELETE',
  'LOAD',
  'CLEAR',
  'CREATE',
  'DROP',
  'COPY',
  'MOVE',
  'ADD',
  'WITH',
]);

/** What one pass over a query text found. */
interface ScanResult {
  maxNesting: number;
  /** Offset where `maxNesting` was first passed, if it was. */
  nestingAt: number | undefined;
  unions: number;
  optionals: number;
  /** Update keywords, in order, with their offsets. */
  updates: { keyword: string; at: number }[];
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function isWordPart(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

/**
 * One linear pass over a query text, outside strings, IRIs and comments: bracket nesting, the
 * UNION and OPTIONAL keywords and the update keywords. Bare words only: `?insert`, `ex:add`,
 * `"load"` and `<urn:drop>` are names, not keywords.
 */
function scan(text: string, nestingLimit: number): ScanResult {
  const result: ScanResult = {
    maxNesting: 0,
    nestingAt: undefined,
    unions: 0,
    optionals: 0,
    updates: [],
  };
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 35 /* # */) {
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    } else if (c === 34 /* " */ || c === 39 /* ' */) {
      const long = text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c;
      i += long ? 3 : 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (
          d === c &&
          (!long || (text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c))
        ) {
          i += long ? 3 : 1;
          break;
        } else if (!long && (d === 10 || d === 13)) break;
        else i++;
      }
    } else if (c === 60 /* < */) {
      // An IRI reference runs to `>` without spaces or quotes; otherwise `<` is an operator.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 62 || d <= 32 || d === 60 || d === 34 || d === 123 || d === 125) break;
        j++;
      }
      i = text.charCodeAt(j) === 62 ? j + 1 : i + 1;
    } else if (c === 123 || c === 40 || c === 91 /* { ( [ */) {
      depth++;
      if (depth > result.maxNesting) {
        result.maxNesting = depth;
        if (depth > nestingLimit && result.nestingAt === undefined) result.nestingAt = i;
      }
      i++;
    } else if (c === 125 || c === 41 || c === 93 /* } ) ] */) {
      if (depth > 0) depth--;
      i++;
    } else if (c === 63 || c === 36 || c === 64 || c === 95 /* ? $ @ _ */) {
      // Variables, language tags and blank node labels: skip the name.
      i++;
      if (c === 95 && text.charCodeAt(i) === 58) i++;
      while (i < n && isWordPart(text.charCodeAt(i))) i++;
    } else if (isWordStart(c)) {
      const start = i;
      while (i < n && isWordPart(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) === 58 /* : a prefixed name */) {
        i++;
        while (i < n && (isWordPart(text.charCodeAt(i)) || text.charCodeAt(i) === 58)) i++;
        continue;
      }
      const word = text.slice(start, i).toUpperCase();
      if (word === 'UNION') result.unions++;
      else if (word === 'OPTIONAL') result.optionals++;
      else if (UPDATE_KEYWORDS.has(word)) result.updates.push({ keyword: word, at: start });
    } else if (c === 58 /* : a name with the empty prefix */) {
      i++;
      while (i < n && (isWordPart(text.charCodeAt(i)) || text.charCodeAt(i) === 58)) i++;
    } else {
      i++;
    }
  }
  return result;
}

function location(text: string, at: number, part: string): NonNullable<Problem['location']> {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1, part };
}

/**
 * Checks a query text against {@link QueryLimits} in one linear pass, before any parsing: the
 * problems found (`QUERY_TOO_LARGE`, `NESTING_TOO_DEEP`), or none.
 *
 * @example
 * ```ts
 * checkQueryLimits('SELECT * { ' + '{'.repeat(10_000) + ' }'); // [{ code: 'NESTING_TOO_DEEP', … }]
 * ```
 */
export function checkQueryLimits(
  text: string,
  limits: QueryLimits = DEFAULT_QUERY_LIMITS,
): Problem[] {
  if (text.length > limits.maxLength)
    return [
      {
        code: PROBLEM_CODES.QUERY_TOO_LARGE,
        message: `The query has ${text.length} characters, more than ${limits.maxLength}`,
      },
    ];
  const found = scan(text, limits.maxNesting);
  const problems: Problem[] = [];
  if (found.nestingAt !== undefined)
    problems.push({
      code: PROBLEM_CODES.NESTING_TOO_DEEP,
      message: `Brackets ({ }, ( ), [ ]) are nested more than ${limits.maxNesting} levels deep`,
      location: location(text, found.nestingAt, text.charAt(found.nestingAt)),
    });
  if (found.unions > limits.maxUnions)
    problems.push({
      code: PROBLEM_CODES.QUERY_TOO_LARGE,
      message: `The query has ${found.unions} UNIONs, more than ${limits.maxUnions}`,
      location: { part: 'UNION' },
    });
  if (found.optionals > limits.maxOptionals)
    problems.push({
      code: PROBLEM_CODES.QUERY_TOO_LARGE,
      message: `The query has ${found.optionals} OPTIONALs, more than ${limits.maxOptionals}`,
      location: { part: 'OPTIONAL' },
    });
  return problems;
}

/**
 * Refuses SPARQL Update without parsing it: any update keyword (INSERT, DELETE, LOAD, CLEAR,
 * CREATE, DROP, COPY, MOVE, ADD, WITH) written as a bare word, outside strings, IRIs, comments
 * and names. Meant for text passed on to another SPARQL service, which may accept syntax this
 * package does not parse; the check is conservative (a query never needs those words bare).
 * Returns one `UPDATE_NOT_SUPPORTED` problem located at the first keyword, or none.
 *
 * @example
 * ```ts
 * findUpdateOperations('LOAD <http://internal/secret>')[0]?.code; // 'UPDATE_NOT_SUPPORTED'
 * findUpdateOperations('SELECT ?insert { ?insert <urn:p> "DELETE" }'); // []
 * ```
 */
export function findUpdateOperations(text: string): Problem[] {
  const { updates } = scan(text, Number.POSITIVE_INFINITY);
  const first = updates[0];
  if (!first) return [];
  const kinds = [...new Set(updates.map((u) => u.keyword))];
  return [
    {
      code: PROBLEM_CODES.UPDATE_NOT_SUPPORTED,
      message: `Updates are not supported (${kinds.join(', ')}): the knowledge graph is read-only here`,
      location: location(text, first.at, first.keyword),
    },
  ];
}
