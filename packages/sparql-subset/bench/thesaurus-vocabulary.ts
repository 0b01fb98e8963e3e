/*
 * The vocabulary of the benchmark thesaurus: its namespaces, concept IRIs and label words. Shared
 * with @dcg/knowledge-graph's benchmark (which depends on this package and writes the same
 * thesaurus as N-Triples text, with a few more predicates), so that both measure the same graph.
 */

export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const EX = 'http://example.org/thesaurus/';
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
/** The PREFIX lines of the benchmark queries. */
export const SPARQL_PREFIXES = `PREFIX skos: <${SKOS}> PREFIX ex: <${EX}> `;

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'data',
  'contract',
  'policy',
  'quality',
  'metric',
  'domain',
  'owner',
  'schema',
];
const WORTE = [
  'Alpha',
  'Beta',
  'Gamma',
  'Delta',
  'Daten',
  'Vertrag',
  'Regel',
  'Qualität',
  'Metrik',
  'Bereich',
  'Besitzer',
  'Schema',
];

export function conceptIri(i: number): string {
  return `${EX}c${i}`;
}

/** Pseudo-random but reproducible. */
export function mix(i: number): number {
  let x = (i + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The English word in the labels of concept `i`. */
export function englishWord(i: number): string {
  return WORDS[mix(i) % WORDS.length] as string;
}

/** The German word in the labels of concept `i`. */
export function germanWord(i: number): string {
  return WORTE[mix(i) % WORTE.length] as string;
}
