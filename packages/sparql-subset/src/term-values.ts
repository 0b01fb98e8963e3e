import {
  FALSE_ID,
  isBlankId,
  isLiteralId,
  type LiteralParts,
  literalParts,
  TRUE_ID,
  XSD,
  XSD_BOOLEAN,
  XSD_DATETIME,
  XSD_DECIMAL,
  XSD_DOUBLE,
  XSD_FLOAT,
  XSD_INTEGER,
  XSD_STRING,
} from './term-ids';

/** Numeric type ranks in SPARQL's promotion order. */
export const INTEGER = 0;
export const DECIMAL = 1;
export const FLOAT = 2;
export const DOUBLE = 3;

const INTEGER_TYPES = new Set(
  [
    'integer',
    'nonPositiveInteger',
    'negativeInteger',
    'long',
    'int',
    'short',
    'byte',
    'nonNegativeInteger',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
    'positiveInteger',
  ].map((name) => XSD + name),
);

const INTEGER_LEX = /^[+-]?\d+$/;
const DECIMAL_LEX = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DOUBLE_LEX = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/;
const DATETIME_LEX = /^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;
const DATE_LEX = /^(-?\d{4,}-\d\d-\d\d)(Z|[+-]\d\d:\d\d)?$/;
const XSD_DATE = `${XSD}date`;

/**
 * The typed value of a term, as far as the operators of the subset need it. `other` covers IRIs,
 * blank nodes, unknown datatypes and ill-typed literals: they only compare by identity.
 */
export type TermValue =
  | { k: 'num'; type: number; n: number; dt: string }
  | { k: 'str'; s: string }
  | { k: 'lang'; s: string; lang: string }
  | { k: 'bool'; b: boolean }
  | { k: 'date'; ms: number; tz: boolean; dt: string }
  | { k: 'other' };

const OTHER: TermValue = { k: 'other' };

function parseDouble(lex: string): number {
  if (lex === 'INF' || lex === '+INF') return Number.POSITIVE_INFINITY;
  if (lex === '-INF') return Number.NEGATIVE_INFINITY;
  return Number(lex);
}

export function numericRank(datatype: string): number {
  if (datatype === XSD_INTEGER || INTEGER_TYPES.has(datatype)) return INTEGER;
  if (datatype === XSD_DECIMAL) return DECIMAL;
  if (datatype === XSD_DOUBLE) return DOUBLE;
  if (datatype === XSD_FLOAT) return FLOAT;
  return -1;
}

export function termValue(id: string): TermValue {
  if (!isLiteralId(id)) return OTHER;
  const { lex, lang, datatype } = literalParts(id);
  if (lang) return { k: 'lang', s: lex, lang };
  if (datatype === XSD_STRING) return { k: 'str', s: lex };
  const rank = numericRank(datatype);
  if (rank === INTEGER)
    return INTEGER_LEX.test(lex) ? { k: 'num', type: rank, n: Number(lex), dt: datatype } : OTHER;
  if (rank === DECIMAL)
    return DECIMAL_LEX.test(lex) ? { k: 'num', type: rank, n: Number(lex), dt: datatype } : OTHER;
  if (rank > DECIMAL)
    return DOUBLE_LEX.test(lex)
      ? { k: 'num', type: rank, n: parseDouble(lex), dt: datatype }
      : OTHER;
  if (datatype === XSD_BOOLEAN) {
    if (lex === 'true' || lex === '1') return { k: 'bool', b: true };
    if (lex === 'false' || lex === '0') return { k: 'bool', b: false };
    return OTHER;
  }
  if (datatype === XSD_DATETIME && DATETIME_LEX.test(lex)) {
    const tz = /(Z|[+-]\d\d:\d\d)$/.test(lex);
    const ms = Date.parse(tz ? lex : `${lex}Z`);
    return Number.isNaN(ms) ? OTHER : { k: 'date', ms, tz, dt: datatype };
  }
  if (datatype === XSD_DATE) {
    const match = DATE_LEX.exec(lex);
    if (!match) return OTHER;
    const zone = match[2];
    const ms = Date.parse(`${match[1]}T00:00:00${zone === undefined ? 'Z' : zone}`);
    return Number.isNaN(ms) ? OTHER : { k: 'date', ms, tz: zone !== undefined, dt: datatype };
  }
  return OTHER;
}

const NUMERIC_SUFFIXES: [string, number][] = [
  [`"^^${XSD_INTEGER}`, INTEGER],
  [`"^^${XSD_DECIMAL}`, DECIMAL],
  [`"^^${XSD_DOUBLE}`, DOUBLE],
];

/**
 * Parses an optionally signed run of at most 15 digits in `text[from..to)` without allocating;
 * undefined for anything else (longer numbers and invalid forms take the general path).
 */
function parseSmallInteger(text: string, from: number, to: number): number | undefined {
  let i = from;
  let sign = 1;
  const first = text.charCodeAt(i);
  if (first === 45 || first === 43) {
    if (first === 45) sign = -1;
    i++;
  }
  if (i >= to || to - i > 15) return undefined;
  let value = 0;
  for (; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return sign * value;
}

/** Numeric type of the last successful {@link numberOf} call (avoids allocating a pair). */
export let lastNumericType = INTEGER;

/**
 * The number a numeric literal id stands for, or undefined when it is not a valid numeric literal.
 * The common datatypes are recognised by suffix without allocating.
 */
export function numberOf(id: string): number | undefined {
  if (id.charCodeAt(0) !== 34 || id.charCodeAt(id.length - 1) === 34) return undefined;
  for (const [suffix, type] of NUMERIC_SUFFIXES) {
    if (!id.endsWith(suffix)) continue;
    if (type === INTEGER) {
      const value = parseSmallInteger(id, 1, id.length - suffix.length);
      if (value !== undefined) {
        lastNumericType = INTEGER;
        return value;
      }
    }
    const lex = id.slice(1, id.length - suffix.length);
    const valid =
      type === INTEGER
        ? INTEGER_LEX.test(lex)
        : type === DECIMAL
          ? DECIMAL_LEX.test(lex)
          : DOUBLE_LEX.test(lex);
    if (!valid) return undefined;
    lastNumericType = type;
    return type === DOUBLE ? parseDouble(lex) : Number(lex);
  }
  const value = termValue(id);
  if (value.k !== 'num') return undefined;
  lastNumericType = value.type;
  return value.n;
}

const NUMERIC_DATATYPE = [XSD_INTEGER, XSD_DECIMAL, XSD_FLOAT, XSD_DOUBLE];

/** The lexical form of a number in the canonical form of a numeric type rank. */
function formatNumber(n: number, type: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return 'INF';
  if (n === Number.NEGATIVE_INFINITY) return '-INF';
  if (type === INTEGER) return BigInt(Math.trunc(n)).toString();
  const text = String(n);
  if (type === DECIMAL) {
    if (text.includes('e')) return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '.0');
    return text.includes('.') ? text : `${text}.0`;
  }
  return text.includes('e') ? text.replace('e+', 'E').replace('e', 'E') : text;
}

/**
 * The id of the numeric literal for `n` at a type rank (the reverse of {@link numberOf}); an
 * integer result that is not finite becomes a double (xsd:integer has no INF).
 */
export function numericId(n: number, type: number): string {
  if (type === INTEGER && !Number.isFinite(n)) return `"${formatNumber(n, DOUBLE)}"^^${XSD_DOUBLE}`;
  return `"${formatNumber(n, type)}"^^${NUMERIC_DATATYPE[type]}`;
}

/** Effective boolean value: true, false, or undefined for a type error. */
export function ebv(id: string | undefined): boolean | undefined {
  if (id === undefined) return undefined;
  if (id === TRUE_ID) return true;
  if (id === FALSE_ID) return false;
  if (!isLiteralId(id)) return undefined;
  const { lex, lang, datatype } = literalParts(id);
  if (lang) return lex.length > 0;
  if (datatype === XSD_STRING) return lex.length > 0;
  if (datatype === XSD_BOOLEAN) {
    const v = termValue(id);
    return v.k === 'bool' ? v.b : false;
  }
  if (numericRank(datatype) >= 0) {
    const v = termValue(id);
    return v.k === 'num' ? v.n !== 0 && !Number.isNaN(v.n) : false;
  }
  return undefined;
}

export function booleanId(value: boolean): string {
  return value ? TRUE_ID : FALSE_ID;
}

/** Whether a value kind belongs to a datatype this engine knows (so unequal values are `false`, not an error). */
function known(v: TermValue): boolean {
  return v.k !== 'other';
}

/**
 * SPARQL `=`: true, false, or undefined (type error), following the operator mapping of SPARQL 1.1
 * and RDFterm-equal for everything else.
 */
export function valueEquals(a: string, b: string): boolean | undefined {
  const aLit = isLiteralId(a);
  const bLit = isLiteralId(b);
  if (!aLit || !bLit) return a === b;
  // Fast paths: the same term (NaN aside), and two simple literals.
  if (a === b && !a.startsWith('"NaN"')) return true;
  const last = a.length - 1;
  if (a.charCodeAt(last) === 34 && b.charCodeAt(b.length - 1) === 34) return false;
  const va = termValue(a);
  const vb = termValue(b);
  if (va.k === 'num' && vb.k === 'num') return va.n === vb.n;
  if (va.k === 'str' && vb.k === 'str') return va.s === vb.s;
  if (va.k === 'bool' && vb.k === 'bool') return va.b === vb.b;
  if (va.k === 'date' && vb.k === 'date' && va.dt === vb.dt) {
    const order = dateCompare(va, vb);
    return order === undefined ? undefined : order === 0;
  }
  if (va.k === 'lang' && vb.k === 'lang') return va.lang === vb.lang && va.s === vb.s;
  if (a === b) return true;
  // Two literals of different known value spaces can never be equal; nor can a language-tagged
  // literal and one without a tag, whatever its datatype.
  if (known(va) && known(vb)) return false;
  if ((va.k === 'lang') !== (vb.k === 'lang')) return false;
  return undefined;
}

/** SPARQL `<` ordering of two values: negative, zero, positive, or undefined when not comparable. */
export function valueCompare(a: string, b: string): number | undefined {
  if (!isLiteralId(a) || !isLiteralId(b)) return undefined;
  if (a.charCodeAt(a.length - 1) === 34 && b.charCodeAt(b.length - 1) === 34)
    return compareStrings(a.slice(1, -1), b.slice(1, -1));
  return compareValues(termValue(a), termValue(b));
}

/** `<` on typed values: negative, zero, positive, or undefined when SPARQL does not define it. */
function compareValues(va: TermValue, vb: TermValue): number | undefined {
  if (va.k === 'num' && vb.k === 'num') {
    if (Number.isNaN(va.n) || Number.isNaN(vb.n)) return undefined;
    return va.n < vb.n ? -1 : va.n > vb.n ? 1 : 0;
  }
  if (va.k === 'str' && vb.k === 'str') return compareStrings(va.s, vb.s);
  if (va.k === 'bool' && vb.k === 'bool') return Number(va.b) - Number(vb.b);
  if (va.k === 'date' && vb.k === 'date' && va.dt === vb.dt) return dateCompare(va, vb);
  return undefined;
}

const FOURTEEN_HOURS = 14 * 3600 * 1000;

/**
 * XML Schema order of two dateTimes: one without a timezone stands for any instant within ±14h,
 * so the comparison is indeterminate (undefined) when the other falls inside that window.
 */
function dateCompare(
  a: { ms: number; tz: boolean },
  b: { ms: number; tz: boolean },
): number | undefined {
  if (a.tz === b.tz) return Math.sign(a.ms - b.ms);
  const fixed = a.tz ? a : b;
  const floating = a.tz ? b : a;
  let order: number | undefined;
  if (fixed.ms < floating.ms - FOURTEEN_HOURS) order = -1;
  else if (fixed.ms > floating.ms + FOURTEEN_HOURS) order = 1;
  if (order === undefined) return undefined;
  return a.tz ? order : -order;
}

/** Code point order (JS compares UTF-16 units, which differs above U+FFFF only for surrogates vs U+E000–U+FFFF). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && ca <= 0xdfff && cb >= 0xe000) return 1;
      if (cb >= 0xd800 && cb <= 0xdfff && ca >= 0xe000) return -1;
      return ca - cb;
    }
  }
  return a.length - b.length;
}

function orderKind(id: string | undefined): number {
  if (id === undefined) return 0;
  if (isBlankId(id)) return 1;
  if (!isLiteralId(id)) return 2;
  return 3;
}

const LITERAL_GROUP: Record<TermValue['k'], number> = {
  num: 0,
  bool: 1,
  date: 2,
  str: 3,
  lang: 4,
  other: 5,
};

/**
 * A term decoded once for sorting, so that comparisons during a sort do not re-parse it. The
 * literal's parts are only needed to break ties between equal values, so they are split lazily.
 */
export interface SortKey {
  readonly id: string | undefined;
  readonly kind: number;
  readonly value: TermValue | undefined;
  parts: LiteralParts | undefined;
}

export function sortKey(id: string | undefined): SortKey {
  const kind = orderKind(id);
  if (kind !== 3 || id === undefined) return { id, kind, value: undefined, parts: undefined };
  // Numbers (the common sort key) without the regular expressions and slices of termValue; the
  // datatype is only read for dates, so it is left empty here.
  const n = numberOf(id);
  if (n !== undefined)
    return { id, kind, value: { k: 'num', type: lastNumericType, n, dt: '' }, parts: undefined };
  return { id, kind, value: termValue(id), parts: undefined };
}

/**
 * ORDER BY comparison of decoded terms: unbound < blank nodes < IRIs < literals; literals by value
 * where `<` is defined, else by a fixed order of value spaces, then lexical form, then language /
 * datatype.
 */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a.id === b.id) return 0;
  if (a.kind !== b.kind) return a.kind - b.kind;
  if (a.id === undefined || b.id === undefined) return 0;
  if (a.kind !== 3) return compareStrings(a.id, b.id);
  const va = a.value as TermValue;
  const vb = b.value as TermValue;
  const byValue = compareValues(va, vb);
  if (byValue !== undefined && byValue !== 0) return byValue;
  const group = LITERAL_GROUP[va.k] - LITERAL_GROUP[vb.k];
  if (group !== 0) return group;
  a.parts ??= literalParts(a.id);
  b.parts ??= literalParts(b.id);
  const pa = a.parts;
  const pb = b.parts;
  return (
    compareStrings(pa.lex, pb.lex) ||
    compareStrings(pa.lang, pb.lang) ||
    compareStrings(pa.datatype, pb.datatype)
  );
}
