/*
 * A deterministic thesaurus-shaped (SKOS) graph as N-Triples, produced in chunks of whole lines so
 * that no document string of the full size is ever built (10M triples are over 1 GB of text).
 * Per concept: type, inScheme, prefLabel en + de, altLabel (2 in 3), definition, rank, broader and
 * narrower (a tree of five children per concept), related (1 in 2), scopeNote (1 in 25): about
 * 9.2 triples a concept.
 */

import { type BenchmarkQuery, thesaurusQueries } from '../../sparql-subset/bench/queries';
import {
  conceptIri,
  EX,
  englishWord,
  germanWord,
  mix,
  RDF_TYPE,
  SKOS,
  SPARQL_PREFIXES,
  XSD_INTEGER,
} from '../../sparql-subset/bench/thesaurus-vocabulary';

// The concepts' IRIs, words and ranks, and most queries, are @dcg/sparql-subset's benchmark
// thesaurus (this package depends on that one): the two benchmarks measure the same graph.
export { mix, SKOS };

/** Triples a concept yields on average (see the header). */
export const TRIPLES_PER_CONCEPT = 9.207;

/** The number of concepts giving about `triples` triples. */
export function conceptsFor(triples: number): number {
  return Math.max(10, Math.round(triples / TRIPLES_PER_CONCEPT));
}

/** The N-Triples of a thesaurus of `concepts` concepts, in chunks of about `chunkBytes`. */
export function* thesaurusChunks(concepts: number, chunkBytes = 1 << 20): Generator<string> {
  const type = `<${RDF_TYPE}>`;
  const concept = `<${SKOS}Concept>`;
  const scheme = `<${EX}scheme>`;
  const inScheme = `<${SKOS}inScheme>`;
  const pref = `<${SKOS}prefLabel>`;
  const alt = `<${SKOS}altLabel>`;
  const definition = `<${SKOS}definition>`;
  const broader = `<${SKOS}broader>`;
  const narrower = `<${SKOS}narrower>`;
  const related = `<${SKOS}related>`;
  const scopeNote = `<${SKOS}scopeNote>`;
  const rank = `<${EX}rank>`;
  let lines: string[] = [];
  let size = 0;
  for (let i = 0; i < concepts; i++) {
    const c = `<${conceptIri(i)}>`;
    const word = englishWord(i);
    const wort = germanWord(i);
    const out = [
      `${c} ${type} ${concept} .`,
      `${c} ${inScheme} ${scheme} .`,
      `${c} ${pref} "${word} concept ${i}"@en .`,
      `${c} ${pref} "${wort} Begriff ${i}"@de .`,
      `${c} ${definition} "The ${word} concept number ${i} of the thesaurus."@en .`,
      `${c} ${rank} "${mix(i * 7) % 1000}"^^<${XSD_INTEGER}> .`,
    ];
    if (i % 3 !== 0) out.push(`${c} ${alt} "${word}-${i}"@en .`);
    if (i > 0) {
      const parent = `<${conceptIri(Math.floor((i - 1) / 5))}>`;
      out.push(`${c} ${broader} ${parent} .`, `${parent} ${narrower} ${c} .`);
    }
    if (i % 2 === 0) out.push(`${c} ${related} <${conceptIri(mix(i * 13) % concepts)}> .`);
    if (i % 25 === 0) out.push(`${c} ${scopeNote} "Use ${word} for item ${i} only."@en .`);
    for (const line of out) {
      lines.push(line);
      size += line.length + 1;
    }
    if (size >= chunkBytes) {
      yield `${lines.join('\n')}\n`;
      lines = [];
      size = 0;
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

/** The benchmark's SPARQL queries for a thesaurus of `n` concepts. */
export function benchmarkQueries(n: number): BenchmarkQuery[] {
  const shared = thesaurusQueries(n);
  const parent = `<${conceptIri(Math.floor(n / 50))}>`;
  return [
    shared.subjectLookup,
    shared.labelsAndDefinitions,
    shared.hierarchy,
    shared.twoHopBroader,
    // scopeNote is in this package's thesaurus only.
    {
      name: 'children + OPTIONAL scopeNote (mostly missing)',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label ?note { ?c skos:broader ${parent} . ?c skos:prefLabel ?label OPTIONAL { ?c skos:scopeNote ?note } }`,
    },
    {
      name: 'OPTIONAL scopeNote (mostly missing), 1000 rows',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label ?note { ?c skos:prefLabel ?label OPTIONAL { ?c skos:scopeNote ?note } } LIMIT 1000`,
    },
    shared.optionalNotBound,
    shared.containsOrderBy,
    shared.numericFilter,
    shared.relatedJoin,
    shared.largeOffset,
  ];
}
