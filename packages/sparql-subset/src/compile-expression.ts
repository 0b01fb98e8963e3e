import type { Expression } from './algebra';
import type { Row, Runtime } from './runtime';
import {
  FALSE_ID,
  isBlankId,
  isIriId,
  isLiteralId,
  isStringLiteralId,
  literalLang,
  literalLex,
  literalParts,
  makeLiteralId,
  RDF_LANGSTRING,
  XSD_INTEGER,
  XSD_STRING,
} from './term-ids';
import {
  booleanId,
  DECIMAL,
  ebv,
  INTEGER,
  lastNumericType,
  numberOf,
  numericId,
  valueCompare,
  valueEquals,
} from './term-values';

/** A compiled expression: the value's engine id, or `undefined` for an error (unbound counts as error). */
export type CompiledExpression = (row: Row, rt: Runtime) => string | undefined;

/** What an expression needs from the plan it sits in. */
export interface ExpressionContext {
  slot(name: string): number;
  /** Compiles an EXISTS pattern evaluated with the current row substituted. */
  exists(expression: Extract<Expression, { type: 'exists' }>): (row: Row, rt: Runtime) => boolean;
}

/** A string literal's lexical form and language ('' when none); undefined for anything else. */
function stringArg(id: string | undefined): { lex: string; lang: string } | undefined {
  if (id === undefined || !isLiteralId(id)) return undefined;
  const parts = literalParts(id);
  if (parts.lang || parts.datatype === XSD_STRING) return { lex: parts.lex, lang: parts.lang };
  return undefined;
}

/** SPARQL §17.4.3.1.3 argument compatibility of two string literals. */
function compatible(a: { lang: string }, b: { lang: string }): boolean {
  return b.lang === '' || a.lang === b.lang;
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) length--;
  }
  return length;
}

function numeric(id: string | undefined): { n: number; type: number } | undefined {
  if (id === undefined) return undefined;
  const n = numberOf(id);
  return n === undefined ? undefined : { n, type: lastNumericType };
}

function arithmetic(op: string, a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return undefined;
  const x = numberOf(a);
  if (x === undefined) return undefined;
  const xType = lastNumericType;
  const y = numberOf(b);
  if (y === undefined) return undefined;
  let type = Math.max(xType, lastNumericType);
  switch (op) {
    case '+':
      return numericId(x + y, type);
    case '-':
      return numericId(x - y, type);
    case '*':
      return numericId(x * y, type);
    default:
      if (type === INTEGER) type = DECIMAL;
      if (type === DECIMAL && y === 0) return undefined;
      return numericId(x / y, type);
  }
}

function compare(op: string, a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (op === '=' || op === '!=') {
    const equal = valueEquals(a, b);
    if (equal === undefined) return undefined;
    return booleanId(op === '=' ? equal : !equal);
  }
  const x = numberOf(a);
  const y = x === undefined ? undefined : numberOf(b);
  let order: number | undefined;
  if (x !== undefined && y !== undefined) {
    if (Number.isNaN(x) || Number.isNaN(y)) return FALSE_ID;
    order = x < y ? -1 : x > y ? 1 : 0;
  } else order = valueCompare(a, b);
  if (order === undefined) return undefined;
  switch (op) {
    case '<':
      return booleanId(order < 0);
    case '>':
      return booleanId(order > 0);
    case '<=':
      return booleanId(order <= 0);
    default:
      return booleanId(order >= 0);
  }
}

function langMatches(tag: string, range: string): boolean {
  if (range === '*') return tag !== '';
  const t = tag.toLowerCase();
  const r = range.toLowerCase();
  return t === r || t.startsWith(`${r}-`);
}

/** XPath fn:substring on code points. */
function substring(text: string, start: number, length: number | undefined): string {
  const chars = codePoints(text);
  const first = Math.round(start);
  const end = length === undefined ? Number.POSITIVE_INFINITY : first + Math.round(length);
  if (Number.isNaN(first) || Number.isNaN(end)) return '';
  let out = '';
  for (let position = 1; position <= chars.length; position++)
    if (position >= first && position < end) out += chars[position - 1];
  return out;
}

function callBuiltin(op: string, v: (string | undefined)[]): string | undefined {
  const [a, b] = v;
  switch (op) {
    case '=':
    case '!=':
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, a, b);
    case '+':
    case '-':
    case '*':
    case '/':
      return arithmetic(op, a, b);
    case 'UMINUS': {
      const x = numeric(a);
      return x ? numericId(-x.n, x.type) : undefined;
    }
    case 'UPLUS': {
      const x = numeric(a);
      return x ? numericId(x.n, x.type) : undefined;
    }
    case 'isiri':
    case 'isuri':
      return a === undefined ? undefined : booleanId(isIriId(a));
    case 'isblank':
      return a === undefined ? undefined : booleanId(isBlankId(a));
    case 'isliteral':
      return a === undefined ? undefined : booleanId(isLiteralId(a));
    case 'isnumeric':
      return a === undefined ? undefined : booleanId(numeric(a) !== undefined);
    case 'str':
      if (a === undefined || isBlankId(a)) return undefined;
      return isLiteralId(a) ? makeLiteralId(literalParts(a).lex) : makeLiteralId(a);
    case 'lang':
      return a !== undefined && isLiteralId(a) ? `"${literalLang(a)}"` : undefined;
    case 'datatype':
      return a !== undefined && isLiteralId(a) ? literalParts(a).datatype : undefined;
    case 'langmatches': {
      const tag = stringArg(a);
      const range = stringArg(b);
      if (!tag || !range || tag.lang || range.lang) return undefined;
      return booleanId(langMatches(tag.lex, range.lex));
    }
    case 'sameterm':
      return a === undefined || b === undefined ? undefined : booleanId(a === b);
    case 'contains':
    case 'strstarts':
    case 'strends': {
      if (a === undefined || b === undefined || !isStringLiteralId(a) || !isStringLiteralId(b))
        return undefined;
      const langB = literalLang(b);
      if (langB !== '' && langB !== literalLang(a)) return undefined;
      // Search inside the id of `a` (its lexical form is a[1..end)) instead of slicing it out.
      const end = a.lastIndexOf('"');
      const y = literalLex(b);
      if (y.length > end - 1) return FALSE_ID;
      if (op === 'strstarts') return booleanId(a.startsWith(y, 1));
      if (op === 'strends') return booleanId(a.endsWith(y, end));
      const at = a.indexOf(y, 1);
      return booleanId(at >= 0 && at + y.length <= end);
    }
    case 'strbefore':
    case 'strafter': {
      const x = stringArg(a);
      const y = stringArg(b);
      if (!x || !y || !compatible(x, y)) return undefined;
      const at = x.lex.indexOf(y.lex);
      if (at < 0) return makeLiteralId('');
      const part = op === 'strbefore' ? x.lex.slice(0, at) : x.lex.slice(at + y.lex.length);
      // An empty match keeps the argument's type only when something was found (SPARQL §17.4.3.7).
      if (part === '' && y.lex !== '' && x.lang === '') return makeLiteralId('');
      return makeLiteralId(part, x.lang, a !== undefined ? literalParts(a).datatype : XSD_STRING);
    }
    case 'lcase':
    case 'ucase': {
      if (a === undefined || !isStringLiteralId(a)) return undefined;
      // Language tags are kept lower-case in ids, so lower-casing the whole id is LCASE.
      if (op === 'lcase') return a.toLowerCase();
      const lang = literalLang(a);
      return makeLiteralId(literalLex(a).toUpperCase(), lang);
    }
    case 'strlen': {
      if (a === undefined || !isStringLiteralId(a)) return undefined;
      return `"${codePointLength(literalLex(a))}"^^${XSD_INTEGER}`;
    }
    case 'substr': {
      const x = stringArg(a);
      const start = numeric(b);
      const length = v.length > 2 ? numeric(v[2]) : undefined;
      if (!x || !start || (v.length > 2 && !length) || a === undefined) return undefined;
      return makeLiteralId(substring(x.lex, start.n, length?.n), x.lang, literalParts(a).datatype);
    }
    case 'concat': {
      let lex = '';
      let lang: string | undefined;
      for (const item of v) {
        const x = stringArg(item);
        if (!x) return undefined;
        lex += x.lex;
        lang = lang === undefined ? x.lang : lang === x.lang ? lang : '';
      }
      return makeLiteralId(lex, lang ?? '');
    }
    case 'strlang': {
      const x = stringArg(a);
      const tag = stringArg(b);
      if (
        !x ||
        x.lang ||
        !tag ||
        tag.lang ||
        tag.lex === '' ||
        !/^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/.test(tag.lex)
      )
        return undefined;
      return makeLiteralId(x.lex, tag.lex);
    }
    case 'strdt': {
      const x = stringArg(a);
      if (!x || x.lang || b === undefined || !isIriId(b) || b === RDF_LANGSTRING) return undefined;
      return makeLiteralId(x.lex, '', b);
    }
    case 'abs':
    case 'ceil':
    case 'floor':
    case 'round': {
      const x = numeric(a);
      if (!x) return undefined;
      const fn =
        op === 'abs'
          ? Math.abs
          : op === 'ceil'
            ? Math.ceil
            : op === 'floor'
              ? Math.floor
              : Math.round;
      return numericId(fn(x.n), x.type);
    }
    default:
      return undefined;
  }
}

/**
 * Compiles an expression into a closure over rows. Errors (including unbound variables) are
 * `undefined`, which FILTER treats as false, as SPARQL requires.
 *
 * @example
 * ```ts
 * const fn = compileExpression({ type: 'call', op: 'bound', args: [{ type: 'var', name: 'x' }] }, context);
 * fn(['urn:a'], runtime); // TRUE_ID
 * ```
 */
export function compileExpression(
  expression: Expression,
  context: ExpressionContext,
): CompiledExpression {
  switch (expression.type) {
    case 'const': {
      const id = expression.id;
      return () => id;
    }
    case 'var': {
      const slot = context.slot(expression.name);
      return (row) => row[slot];
    }
    case 'exists': {
      const test = context.exists(expression);
      const negated = expression.negated;
      return (row, rt) => booleanId(test(row, rt) !== negated);
    }
    case 'in': {
      const arg = compileExpression(expression.arg, context);
      const list = expression.list.map((item) => compileExpression(item, context));
      const negated = expression.negated;
      return (row, rt) => {
        const value = arg(row, rt);
        if (value === undefined) return undefined;
        let error = false;
        for (const item of list) {
          const candidate = item(row, rt);
          const equal = candidate === undefined ? undefined : valueEquals(value, candidate);
          if (equal === true) return booleanId(!negated);
          if (equal === undefined) error = true;
        }
        return error ? undefined : booleanId(negated);
      };
    }
    case 'call': {
      if (expression.op !== '&&' && expression.op !== '||' && expression.op !== '!')
        return compileCall(expression.op, expression.args, context);
      // A connective is a condition (three-valued logic lives in compileCondition), made a term.
      const condition = compileCondition(expression, context);
      return (row, rt) => {
        const value = condition(row, rt);
        return value === undefined ? undefined : booleanId(value);
      };
    }
  }
}

function compileCall(
  op: string,
  argExpressions: Expression[],
  context: ExpressionContext,
): CompiledExpression {
  const args = argExpressions.map((arg) => compileExpression(arg, context));
  const [first, second, third] = args as [
    CompiledExpression,
    CompiledExpression,
    CompiledExpression,
  ];
  switch (op) {
    case 'bound': {
      const target = argExpressions[0];
      if (target?.type !== 'var') return () => undefined;
      const slot = context.slot(target.name);
      return (row) => booleanId(row[slot] !== undefined);
    }
    case 'if':
      return (row, rt) => {
        const condition = ebv(first(row, rt));
        if (condition === undefined) return undefined;
        return condition ? second(row, rt) : third(row, rt);
      };
    case 'coalesce':
      return (row, rt) => {
        for (const arg of args) {
          const value = arg(row, rt);
          if (value !== undefined) return value;
        }
        return undefined;
      };
    default:
      if (args.length === 1) return (row, rt) => callBuiltin(op, [first(row, rt)]);
      if (args.length === 2) return (row, rt) => callBuiltin(op, [first(row, rt), second(row, rt)]);
      return (row, rt) =>
        callBuiltin(
          op,
          args.map((arg) => arg(row, rt)),
        );
  }
}

/** A compiled FILTER condition: its effective boolean value, or undefined for an error. */
export type CompiledCondition = (row: Row, rt: Runtime) => boolean | undefined;

const ORDERING = new Set(['<', '>', '<=', '>=']);

function isSimpleLiteralId(id: string): boolean {
  return id.charCodeAt(0) === 34 && id.charCodeAt(id.length - 1) === 34;
}

/** Whether a needle is ASCII without upper-case letters (so ASCII folding of the haystack is exact). */
function isFoldedAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127 || (c >= 65 && c <= 90)) return false;
  }
  return true;
}

/**
 * Where `needle` occurs in the lower-cased `text[from..to)`, for `op` (contains: first index,
 * strstarts / strends: at the start / end only), or -1; undefined when the text has a character
 * outside ASCII (Unicode lower-casing may change it in ways ASCII folding does not).
 */
function foldedSearch(
  op: string,
  text: string,
  from: number,
  to: number,
  needle: string,
): number | undefined {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 127) return undefined;
  const m = needle.length;
  const first = op === 'strends' ? to - m : from;
  const last = op === 'contains' ? to - m : first;
  outer: for (let i = first; i <= last; i++) {
    if (i < from) return -1;
    for (let k = 0; k < m; k++) {
      let c = text.charCodeAt(i + k);
      if (c >= 65 && c <= 90) c += 32;
      if (c !== needle.charCodeAt(k)) continue outer;
    }
    return i;
  }
  return -1;
}

/**
 * `CONTAINS` / `STRSTARTS` / `STRENDS` of a term, or of its `LCASE`, and a simple literal: searched
 * inside the term's id, without building the lower-cased term or an argument list. Same answers as
 * the general path: an error (undefined) when the term is not a string literal.
 */
function compileStringSearch(
  op: string,
  left: Expression,
  right: Expression,
  context: ExpressionContext,
): CompiledCondition | undefined {
  if (right.type !== 'const' || !isSimpleLiteralId(right.id)) return undefined;
  const needle = literalLex(right.id);
  const lower = left.type === 'call' && left.op === 'lcase' && left.args.length === 1;
  if (lower && !isFoldedAscii(needle)) return undefined;
  const general = compileExpression({ type: 'call', op, args: [left, right] }, context);
  const value = compileExpression(lower ? (left.args[0] as Expression) : left, context);
  const m = needle.length;
  return (row, rt) => {
    const id = value(row, rt);
    if (id === undefined || id.charCodeAt(0) !== 34) return undefined;
    const lastIndex = id.length - 1;
    const end = id.charCodeAt(lastIndex) === 34 ? lastIndex : id.lastIndexOf('"');
    // A typed literal other than xsd:string is not a string literal: an error.
    if (end !== lastIndex && id.charCodeAt(end + 1) !== 64) return undefined;
    if (m > end - 1) return false;
    if (lower) {
      const at = foldedSearch(op, id, 1, end, needle);
      if (at !== undefined) return at >= 0;
      return ebv(general(row, rt));
    }
    if (op === 'strstarts') return id.startsWith(needle, 1);
    if (op === 'strends') return id.endsWith(needle, end);
    const at = id.indexOf(needle, 1);
    return at >= 0 && at + m <= end;
  };
}

/**
 * Compiles an expression used as a condition (FILTER, OPTIONAL's filter). Same semantics as taking
 * the effective boolean value of {@link compileExpression}, with the common shapes (connectives,
 * BOUND, comparisons with a constant, LANG(?x) = "tag") evaluated without building result terms.
 *
 * @example
 * ```ts
 * const keep = compileCondition(parsedFilterExpression, context);
 * if (keep(row, rt) === true) yield row;
 * ```
 */
export function compileCondition(
  expression: Expression,
  context: ExpressionContext,
): CompiledCondition {
  if (expression.type === 'call') {
    const [left, right] = expression.args as [Expression, Expression];
    switch (expression.op) {
      case '&&':
      case '||': {
        // SPARQL's three-valued logic: the value that decides alone (false for &&, true for ||)
        // wins over an error; otherwise an error on either side is the answer.
        const decisive = expression.op === '||';
        const x = compileCondition(left, context);
        const y = compileCondition(right, context);
        return (row, rt) => {
          const a = x(row, rt);
          if (a === decisive) return decisive;
          const b = y(row, rt);
          if (b === decisive) return decisive;
          return a === undefined || b === undefined ? undefined : !decisive;
        };
      }
      case '!': {
        const x = compileCondition(left, context);
        return (row, rt) => {
          const a = x(row, rt);
          return a === undefined ? undefined : !a;
        };
      }
      case 'bound':
        if (left.type === 'var') {
          const slot = context.slot(left.name);
          return (row) => row[slot] !== undefined;
        }
        break;
      case '=':
      case '!=': {
        const negate = expression.op === '!=';
        // LANG(?x) = "tag" compares the tag in place.
        if (
          left.type === 'call' &&
          left.op === 'lang' &&
          right.type === 'const' &&
          isSimpleLiteralId(right.id)
        ) {
          const inner = compileExpression(left.args[0] as Expression, context);
          const tag = literalLex(right.id);
          return (row, rt) => {
            const value = inner(row, rt);
            if (value === undefined || !isLiteralId(value)) return undefined;
            return (literalLang(value) === tag) !== negate;
          };
        }
        if (right.type === 'const' && !isLiteralId(right.id)) {
          // Equality with an IRI is identity, whatever the other term is.
          const x = compileExpression(left, context);
          const iri = right.id;
          return (row, rt) => {
            const value = x(row, rt);
            return value === undefined ? undefined : (value === iri) !== negate;
          };
        }
        break;
      }
      case 'contains':
      case 'strstarts':
      case 'strends': {
        const search = compileStringSearch(expression.op, left, right, context);
        if (search) return search;
        break;
      }
      default:
        if (ORDERING.has(expression.op) && right.type === 'const') {
          const constant = numberOf(right.id);
          if (constant === undefined || Number.isNaN(constant)) break;
          const x = compileExpression(left, context);
          const op = expression.op;
          const general = compileExpression(expression, context);
          return (row, rt) => {
            const value = x(row, rt);
            if (value === undefined) return undefined;
            const n = numberOf(value);
            if (n === undefined) return ebv(general(row, rt));
            if (Number.isNaN(n)) return false;
            return op === '<'
              ? n < constant
              : op === '>'
                ? n > constant
                : op === '<='
                  ? n <= constant
                  : n >= constant;
          };
        }
    }
  }
  const value = compileExpression(expression, context);
  return (row, rt) => ebv(value(row, rt));
}
