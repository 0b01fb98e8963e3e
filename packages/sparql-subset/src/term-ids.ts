import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { canonicalLanguageTag } from './language-tag';

/*
 * Terms travel through the engine as plain strings in n3's id format, so that joining is string
 * equality and an n3 Store's entity index can be read without converting:
 *   IRI  → the IRI itself          blank node → `_:label`
 *   literal → `"lex"` (xsd:string), `"lex"@lang` (lower-case tag) or `"lex"^^datatype`
 */

export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const XSD_STRING = `${XSD}string`;
export const XSD_BOOLEAN = `${XSD}boolean`;
export const XSD_INTEGER = `${XSD}integer`;
export const XSD_DECIMAL = `${XSD}decimal`;
export const XSD_FLOAT = `${XSD}float`;
export const XSD_DOUBLE = `${XSD}double`;
export const XSD_DATETIME = `${XSD}dateTime`;
export const RDF_LANGSTRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

export const TRUE_ID = `"true"^^${XSD_BOOLEAN}`;
export const FALSE_ID = `"false"^^${XSD_BOOLEAN}`;

/** The three parts of a literal id. `lang` is '' when absent; `datatype` is always set. */
export interface LiteralParts {
  lex: string;
  lang: string;
  datatype: string;
}

export function isLiteralId(id: string): boolean {
  return id.charCodeAt(0) === 34;
}

export function isBlankId(id: string): boolean {
  return id.charCodeAt(0) === 95 && id.charCodeAt(1) === 58;
}

export function isIriId(id: string): boolean {
  return !isLiteralId(id) && !isBlankId(id);
}

export function literalParts(id: string): LiteralParts {
  const last = id.length - 1;
  if (id.charCodeAt(last) === 34) return { lex: id.slice(1, last), lang: '', datatype: XSD_STRING };
  const end = id.lastIndexOf('"');
  const lex = id.slice(1, end);
  if (id.charCodeAt(end + 1) === 64)
    return { lex, lang: id.slice(end + 2), datatype: RDF_LANGSTRING };
  return { lex, lang: '', datatype: id.slice(end + 3) };
}

/** The lexical form of a literal id, without allocating the other parts. */
export function literalLex(id: string): string {
  const last = id.length - 1;
  if (id.charCodeAt(last) === 34) return id.slice(1, last);
  return id.slice(1, id.lastIndexOf('"'));
}

/** The language tag of a literal id ('' when it has none). */
export function literalLang(id: string): string {
  const end = id.lastIndexOf('"');
  return id.charCodeAt(end + 1) === 64 ? id.slice(end + 2) : '';
}

/** Whether a literal id is a string literal: simple, xsd:string or language-tagged. */
export function isStringLiteralId(id: string): boolean {
  if (id.charCodeAt(0) !== 34) return false;
  const end = id.lastIndexOf('"');
  return end === id.length - 1 || id.charCodeAt(end + 1) === 64;
}

export function makeLiteralId(lex: string, lang = '', datatype = XSD_STRING): string {
  if (lang) return `"${lex}"@${lang.toLowerCase()}`;
  if (datatype === XSD_STRING) return `"${lex}"`;
  return `"${lex}"^^${datatype}`;
}

/** The engine id of any RDF/JS term (language tags lower-cased, as n3 stores them). */
export function termToId(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return term.value;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      return makeLiteralId(term.value, term.language, term.datatype.value);
    case 'Variable':
      return `?${term.value}`;
    case 'DefaultGraph':
      return '';
    default:
      throw new TypeError(`Unsupported term type ${term.termType}`);
  }
}

/** The RDF/JS term (n3 DataFactory) of an engine id. */
export function idToTerm(id: string): RDF.Term {
  if (isLiteralId(id)) {
    const { lex, lang, datatype } = literalParts(id);
    return DataFactory.literal(lex, lang || DataFactory.namedNode(datatype));
  }
  if (isBlankId(id)) return DataFactory.blankNode(id.slice(2));
  return DataFactory.namedNode(id);
}

/**
 * One value of a SPARQL JSON result binding.
 *
 * @example
 * ```ts
 * const label: SparqlJsonTerm = { type: 'literal', value: 'Data contract', 'xml:lang': 'en' };
 * ```
 */
export type SparqlJsonTerm =
  | { type: 'uri'; value: string }
  | { type: 'bnode'; value: string }
  | { type: 'literal'; value: string; 'xml:lang'?: string; datatype?: string };

/** The SPARQL JSON form of an engine id; a language tag in its conventional case (`en-US`). */
export function idToJson(id: string): SparqlJsonTerm {
  if (isLiteralId(id)) {
    const { lex, lang, datatype } = literalParts(id);
    if (lang) return { type: 'literal', value: lex, 'xml:lang': canonicalLanguageTag(lang) };
    if (datatype === XSD_STRING) return { type: 'literal', value: lex };
    return { type: 'literal', value: lex, datatype };
  }
  if (isBlankId(id)) return { type: 'bnode', value: id.slice(2) };
  return { type: 'uri', value: id };
}
