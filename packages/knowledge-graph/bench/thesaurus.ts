/*
 * A deterministic thesaurus-shaped (SKOS) graph as N-Triples, produced in chunks of whole lines so
 * that no document string of the full size is ever built (10M triples are over 1 GB of text).
 * Per concept: type, inScheme, prefLabel en + de, altLabel (2 in 3), definition, rank, broader and
 * narrower (a tree of five children per concept), related (1 in 2), scopeNote (1 in 25): about
 * 9.2 triples a concept.
 */

export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const EX = 'http://example.org/thesaurus/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
/** Triples a concept yields on average (see the header). */
export const TRIPLES_PER_CONCEPT = 9.207;

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
    const word = WORDS[mix(i) % WORDS.length] as string;
    const wort = WORTE[mix(i) % WORTE.length] as string;
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
export function benchmarkQueries(n: number): { name: string; text: string }[] {
  const prefixes = `PREFIX skos: <${SKOS}> PREFIX ex: <${EX}> `;
  const some = [7, n >> 3, n >> 2, n >> 1, n - 3].map((i) => `<${conceptIri(i)}>`).join(' ');
  const middle = `<${conceptIri(Math.floor(n / 7))}>`;
  const deep = `<${conceptIri(n - 11)}>`;
  const parent = `<${conceptIri(Math.floor(n / 50))}>`;
  return [
    { name: 'subject lookup', text: `SELECT ?p ?o { ${middle} ?p ?o }` },
    {
      name: 'labels+definitions (5 IRIs)',
      text: `${prefixes} SELECT ?c ?label ?def { VALUES ?c { ${some} } ?c skos:prefLabel ?label OPTIONAL { ?c skos:definition ?def } }`,
    },
    {
      name: 'hierarchy around a concept',
      text: `${prefixes} SELECT ?rel ?other ?label { ${middle} ?rel ?other FILTER(?rel IN (skos:broader, skos:narrower, skos:related)) ?other skos:prefLabel ?label FILTER(LANG(?label) = "en") }`,
    },
    {
      name: 'two-hop broader chain',
      text: `${prefixes} SELECT ?top ?label { ${deep} skos:broader/skos:broader ?top . ?top skos:prefLabel ?label FILTER(LANGMATCHES(LANG(?label), "en")) }`,
    },
    {
      name: 'children + OPTIONAL scopeNote (mostly missing)',
      text: `${prefixes} SELECT ?c ?label ?note { ?c skos:broader ${parent} . ?c skos:prefLabel ?label OPTIONAL { ?c skos:scopeNote ?note } }`,
    },
    {
      name: 'OPTIONAL scopeNote (mostly missing), 1000 rows',
      text: `${prefixes} SELECT ?c ?label ?note { ?c skos:prefLabel ?label OPTIONAL { ?c skos:scopeNote ?note } } LIMIT 1000`,
    },
    {
      name: 'OPTIONAL + !BOUND',
      text: `${prefixes} SELECT ?c ?label { ?c skos:prefLabel ?label OPTIONAL { ?c skos:altLabel ?alt } FILTER(!BOUND(?alt) && LANG(?label) = "en") } LIMIT 100`,
    },
    {
      name: 'CONTAINS + ORDER BY/LIMIT/OFFSET',
      text: `${prefixes} SELECT ?c ?label { ?c skos:prefLabel ?label FILTER(CONTAINS(LCASE(?label), "quality")) } ORDER BY ?label LIMIT 10 OFFSET 10`,
    },
    {
      name: 'numeric filter ORDER BY DESC',
      text: `${prefixes} SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank >= 995) } ORDER BY DESC(?rank) ?c LIMIT 20`,
    },
    {
      name: 'join of related concepts',
      text: `${prefixes} SELECT ?a ?b ?la ?lb { ?a skos:related ?b . ?a skos:prefLabel ?la . ?b skos:prefLabel ?lb FILTER(LANG(?la) = "en" && LANG(?lb) = "en") } LIMIT 200`,
    },
    {
      name: 'large OFFSET scan',
      text: `${prefixes} SELECT ?c ?label { ?c skos:prefLabel ?label } OFFSET ${n} LIMIT 10`,
    },
  ];
}
