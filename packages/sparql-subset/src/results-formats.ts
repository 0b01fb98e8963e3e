import { acceptQuality, parseAccept } from './accept-header';
import type { SparqlResults } from './evaluate';
import type { SparqlJsonTerm } from './term-ids';

/** The formats of the SPARQL 1.1 Query Results specifications (JSON, XML, CSV and TSV). */
export type ResultsFormat = 'json' | 'xml' | 'csv' | 'tsv';

/** The media type each {@link ResultsFormat} is sent as. */
export const RESULTS_MEDIA_TYPES: Readonly<Record<ResultsFormat, string>> = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
};

/** Formats that can carry an ASK answer: CSV and TSV define no boolean result. */
export const BOOLEAN_RESULTS_FORMATS: readonly ResultsFormat[] = ['json', 'xml'];

/** Every format, in the order preferred when a client accepts several equally. */
export const ALL_RESULTS_FORMATS: readonly ResultsFormat[] = ['json', 'xml', 'csv', 'tsv'];

/** Other names clients use for a format (`Accept: application/json` gets SPARQL JSON). */
const ALIASES: Readonly<Record<string, ResultsFormat>> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/**
 * Chooses the results format of a SPARQL protocol answer: the `format` parameter (`json`, `xml`,
 * `csv`, `tsv`) if given, otherwise the `Accept` header with its q-values (no header: JSON). Ties
 * go to the order of `offered`. `undefined` when nothing offered is acceptable (answer 406).
 *
 * @example
 * ```ts
 * chooseResultsFormat({ accept: 'text/csv;q=0.5, application/sparql-results+xml' }); // 'xml'
 * chooseResultsFormat({ accept: 'text/csv', offered: BOOLEAN_RESULTS_FORMATS }); // undefined
 * ```
 */
export function chooseResultsFormat(input: {
  accept?: string | undefined;
  format?: string | undefined;
  offered?: readonly ResultsFormat[];
}): ResultsFormat | undefined {
  const offered = input.offered ?? ALL_RESULTS_FORMATS;
  if (input.format !== undefined) {
    const wanted = input.format.trim().toLowerCase() as ResultsFormat;
    return offered.includes(wanted) ? wanted : undefined;
  }
  const accept = input.accept?.trim();
  if (!accept) return offered[0];
  const ranges = parseAccept(accept);
  let chosen: { format: ResultsFormat; q: number } | undefined;
  for (const format of offered) {
    let q = acceptQuality(RESULTS_MEDIA_TYPES[format], ranges);
    for (const [alias, target] of Object.entries(ALIASES)) {
      // An alias counts only when named exactly: `*/*` already matched the canonical type.
      if (target === format) q = Math.max(q, acceptQuality(alias, ranges, { exact: true }));
    }
    if (q > 0 && (!chosen || q > chosen.q)) chosen = { format, q };
  }
  return chosen?.format;
}

/**
 * Writes results in one of the SPARQL 1.1 Query Results formats. An ASK answer (`boolean`) can be
 * written as JSON or XML only; CSV and TSV throw a `TypeError` (choose with
 * {@link BOOLEAN_RESULTS_FORMATS}). XML cannot hold the control characters XML 1.0 forbids; they
 * are written as U+FFFD in XML only (JSON, CSV and TSV keep them).
 *
 * @example
 * ```ts
 * const csv = serializeResults(await query('SELECT ?s { ?s ?p ?o } LIMIT 1', store), 'csv');
 * ```
 */
export function serializeResults(results: SparqlResults, format: ResultsFormat): string {
  if (format === 'json') return JSON.stringify(results);
  if (format === 'xml') return toXml(results);
  if ('boolean' in results) {
    throw new TypeError(`An ASK answer has no ${format.toUpperCase()} form; use JSON or XML`);
  }
  return format === 'csv' ? toCsv(results) : toTsv(results);
}

type Bindings = Extract<SparqlResults, { results: unknown }>;

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xmlText(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\r', '&#13;');
}

function xmlTerm(term: SparqlJsonTerm): string {
  if (term.type === 'uri') return `<uri>${xmlText(term.value)}</uri>`;
  if (term.type === 'bnode') return `<bnode>${xmlText(term.value)}</bnode>`;
  const lang = term['xml:lang'];
  const attribute = lang
    ? ` xml:lang="${xmlText(lang)}"`
    : term.datatype
      ? ` datatype="${xmlText(term.datatype)}"`
      : '';
  return `<literal${attribute}>${xmlText(term.value)}</literal>`;
}

function toXml(results: SparqlResults): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sparql xmlns="http://www.w3.org/2005/sparql-results#">',
  ];
  if ('boolean' in results) {
    lines.push('  <head/>', `  <boolean>${results.boolean}</boolean>`);
  } else {
    lines.push('  <head>');
    for (const name of results.head.vars) lines.push(`    <variable name="${xmlText(name)}"/>`);
    lines.push('  </head>', '  <results>');
    for (const row of results.results.bindings) {
      lines.push('    <result>');
      for (const name of results.head.vars) {
        const term = row[name];
        if (term) lines.push(`      <binding name="${xmlText(name)}">${xmlTerm(term)}</binding>`);
      }
      lines.push('    </result>');
    }
    lines.push('  </results>');
  }
  lines.push('</sparql>', '');
  return lines.join('\n');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvTerm(term: SparqlJsonTerm | undefined): string {
  if (!term) return '';
  return csvField(term.type === 'bnode' ? `_:${term.value}` : term.value);
}

/** SPARQL 1.1 Query Results CSV: plain values, RFC 4180 quoting, CRLF line ends. */
function toCsv(results: Bindings): string {
  const vars = results.head.vars;
  const lines = [vars.map(csvField).join(',')];
  for (const row of results.results.bindings) {
    lines.push(vars.map((name) => csvTerm(row[name])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function turtleString(text: string): string {
  return text.replace(/[\\"\t\n\r]/g, (c) =>
    c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\${c}`,
  );
}

/** An IRI in `<…>`: characters Turtle's IRIREF forbids are written as `\u` escapes. */
function turtleIri(iri: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Turtle's IRIREF forbids them; they are escaped, not matched by mistake
  return `<${iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}>`;
}

function tsvTerm(term: SparqlJsonTerm | undefined): string {
  if (!term) return '';
  if (term.type === 'uri') return turtleIri(term.value);
  if (term.type === 'bnode') return `_:${term.value}`;
  const literal = `"${turtleString(term.value)}"`;
  const lang = term['xml:lang'];
  if (lang) return `${literal}@${lang}`;
  return term.datatype ? `${literal}^^${turtleIri(term.datatype)}` : literal;
}

/** SPARQL 1.1 Query Results TSV: terms in SPARQL/Turtle syntax, `?name` headers, LF line ends. */
function toTsv(results: Bindings): string {
  const vars = results.head.vars;
  const lines = [vars.map((name) => `?${name}`).join('\t')];
  for (const row of results.results.bindings) {
    lines.push(vars.map((name) => tsvTerm(row[name])).join('\t'));
  }
  return `${lines.join('\n')}\n`;
}
