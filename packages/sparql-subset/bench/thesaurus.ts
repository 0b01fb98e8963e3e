import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import {
  conceptIri,
  EX,
  englishWord,
  germanWord,
  mix,
  RDF_TYPE,
  SKOS,
  XSD_INTEGER,
} from './thesaurus-vocabulary';

/*
 * A deterministic SKOS-like thesaurus: concepts with prefLabel / altLabel / definition in English
 * and German, a broader tree (five children per concept) with narrower as its inverse, a related
 * link, and a numeric rank. About nine triples per concept.
 */

export function generateThesaurus(concepts: number): RDF.Quad[] {
  const { namedNode, literal, quad } = DataFactory;
  const type = namedNode(RDF_TYPE);
  const concept = namedNode(`${SKOS}Concept`);
  const pref = namedNode(`${SKOS}prefLabel`);
  const alt = namedNode(`${SKOS}altLabel`);
  const definition = namedNode(`${SKOS}definition`);
  const broader = namedNode(`${SKOS}broader`);
  const narrower = namedNode(`${SKOS}narrower`);
  const related = namedNode(`${SKOS}related`);
  const rank = namedNode(`${EX}rank`);
  const integer = namedNode(XSD_INTEGER);
  const quads: RDF.Quad[] = [];
  for (let i = 0; i < concepts; i++) {
    const c = namedNode(conceptIri(i));
    const word = englishWord(i);
    const wort = germanWord(i);
    quads.push(quad(c, type, concept));
    quads.push(quad(c, pref, literal(`${word} concept ${i}`, 'en')));
    quads.push(quad(c, pref, literal(`${wort} Begriff ${i}`, 'de')));
    if (i % 3 !== 0) quads.push(quad(c, alt, literal(`${word}-${i}`, 'en')));
    quads.push(
      quad(c, definition, literal(`The ${word} concept number ${i} of the thesaurus.`, 'en')),
    );
    quads.push(quad(c, rank, literal(String(mix(i * 7) % 1000), integer)));
    if (i > 0) {
      const parent = namedNode(conceptIri(Math.floor((i - 1) / 5)));
      quads.push(quad(c, broader, parent));
      quads.push(quad(parent, narrower, c));
    }
    if (i % 2 === 0) quads.push(quad(c, related, namedNode(conceptIri(mix(i * 13) % concepts))));
  }
  return quads;
}

function ntTerm(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType === 'Literal') {
    const value = JSON.stringify(term.value);
    if (term.language) return `${value}@${term.language}`;
    return `${value}^^<${term.datatype.value}>`;
  }
  return `_:${term.value}`;
}

export function toNTriples(quads: RDF.Quad[]): string {
  return quads
    .map((q) => `${ntTerm(q.subject)} ${ntTerm(q.predicate)} ${ntTerm(q.object)} .`)
    .join('\n');
}
