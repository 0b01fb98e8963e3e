import type { RdfTerm, SparqlSelectResults } from '@dcg/kg-schema';

const xsd = 'http://www.w3.org/2001/XMLSchema#';
const integerTypes = new Set(
  [
    'integer',
    'long',
    'int',
    'short',
    'byte',
    'nonNegativeInteger',
    'nonPositiveInteger',
    'negativeInteger',
    'positiveInteger',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
  ].map((name) => `${xsd}${name}`),
);
const decimalPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const floatPattern = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/;

/** A language-tagged string, kept with its tag. */
export interface LangString {
  readonly value: string;
  readonly lang: string;
}

/** A quoted triple as plain values. */
export interface PlainTriple {
  readonly subject: PlainValue;
  readonly predicate: PlainValue;
  readonly object: PlainValue;
}

/** What {@link toPlainValue} turns a term into. */
export type PlainValue = string | number | boolean | LangString | PlainTriple;

/** Options of {@link toPlainValue}. */
export interface PlainValueOptions {
  /** `'object'` (default) keeps language tags as `{ value, lang }`; `'string'` keeps only the text. */
  readonly langStrings?: 'object' | 'string' | undefined;
}

/**
 * Turns an RDF term into a plain JavaScript value: IRIs and plain or `xsd:string` literals become
 * strings, blank nodes `_:label`, `xsd:boolean` a boolean, the XSD numeric types a number
 * (integers outside ±2^53 stay their exact lexical string), language-tagged literals
 * `{ value, lang }`, other datatypes (dates, …) their lexical string. A literal whose text does
 * not fit its datatype stays its text.
 *
 * @example
 * toPlainValue({ type: 'literal', value: '42', datatype: 'http://www.w3.org/2001/XMLSchema#integer' }); // 42
 * toPlainValue({ type: 'literal', value: 'Wasser', 'xml:lang': 'de' }); // { value: 'Wasser', lang: 'de' }
 */
export function toPlainValue(term: RdfTerm, options: PlainValueOptions = {}): PlainValue {
  switch (term.type) {
    case 'uri':
      return term.value;
    case 'bnode':
      return `_:${term.value}`;
    case 'triple':
      return {
        subject: toPlainValue(term.value.subject, options),
        predicate: toPlainValue(term.value.predicate, options),
        object: toPlainValue(term.value.object, options),
      };
    case 'literal':
      return literalValue(term.value, term['xml:lang'], term.datatype, options);
  }
}

/**
 * Turns every row of SELECT results into an object of plain values (see {@link toPlainValue});
 * unbound variables are absent.
 *
 * @example
 * const rows = toPlainRows(await client.select<'concept' | 'label'>(query));
 * rows[0]?.label; // { value: 'Water', lang: 'en' }
 */
export function toPlainRows<V extends string>(
  results: SparqlSelectResults<V>,
  options: PlainValueOptions = {},
): { [K in V]?: PlainValue }[] {
  return results.results.bindings.map((binding) => {
    const row: { [K in V]?: PlainValue } = {};
    for (const [name, term] of Object.entries(binding) as [V, RdfTerm | undefined][]) {
      if (term !== undefined) row[name] = toPlainValue(term, options);
    }
    return row;
  });
}

function literalValue(
  text: string,
  lang: string | undefined,
  datatype: string | undefined,
  options: PlainValueOptions,
): PlainValue {
  if (lang !== undefined) return options.langStrings === 'string' ? text : { value: text, lang };
  if (datatype === undefined) return text;
  const trimmed = text.trim();
  if (datatype === `${xsd}boolean`) {
    if (trimmed === 'true' || trimmed === '1') return true;
    if (trimmed === 'false' || trimmed === '0') return false;
    return text;
  }
  if (integerTypes.has(datatype)) {
    if (!/^[+-]?\d+$/.test(trimmed)) return text;
    const number = Number(trimmed);
    return Number.isSafeInteger(number) ? number : trimmed;
  }
  if (datatype === `${xsd}decimal`) {
    return decimalPattern.test(trimmed) ? Number(trimmed) : text;
  }
  if (datatype === `${xsd}double` || datatype === `${xsd}float`) {
    if (!floatPattern.test(trimmed)) return text;
    if (trimmed.endsWith('INF')) return trimmed.startsWith('-') ? -Infinity : Infinity;
    return Number(trimmed);
  }
  return text;
}
