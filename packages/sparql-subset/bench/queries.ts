import { conceptIri, SPARQL_PREFIXES } from './thesaurus-vocabulary';

export interface BenchmarkQuery {
  name: string;
  text: string;
}

/**
 * The knowledge-graph queries asked of a thesaurus of `n` concepts, by key. @dcg/knowledge-graph's
 * benchmark asks them too (in its own order, beside queries of its own), so that the figures of
 * both benchmarks are of the same queries.
 */
export function thesaurusQueries(n: number) {
  const some = [7, n >> 3, n >> 2, n >> 1, n - 3].map((i) => `<${conceptIri(i)}>`).join(' ');
  const middle = `<${conceptIri(Math.floor(n / 7))}>`;
  const deep = `<${conceptIri(n - 11)}>`;
  return {
    subjectLookup: { name: 'subject lookup', text: `SELECT ?p ?o { ${middle} ?p ?o }` },
    labelsAndDefinitions: {
      name: 'labels+definitions (5 IRIs)',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label ?def { VALUES ?c { ${some} } ?c skos:prefLabel ?label OPTIONAL { ?c skos:definition ?def } }`,
    },
    hierarchy: {
      name: 'hierarchy around a concept',
      text: `${SPARQL_PREFIXES} SELECT ?rel ?other ?label { ${middle} ?rel ?other FILTER(?rel IN (skos:broader, skos:narrower, skos:related)) ?other skos:prefLabel ?label FILTER(LANG(?label) = "en") }`,
    },
    twoHopBroader: {
      name: 'two-hop broader chain',
      text: `${SPARQL_PREFIXES} SELECT ?top ?label { ${deep} skos:broader/skos:broader ?top . ?top skos:prefLabel ?label FILTER(LANGMATCHES(LANG(?label), "en")) }`,
    },
    containsOrderBy: {
      name: 'CONTAINS + ORDER BY/LIMIT/OFFSET',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label { ?c skos:prefLabel ?label FILTER(CONTAINS(LCASE(?label), "quality")) } ORDER BY ?label LIMIT 10 OFFSET 10`,
    },
    numericFilter: {
      name: 'numeric filter ORDER BY DESC',
      text: `${SPARQL_PREFIXES} SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank >= 995) } ORDER BY DESC(?rank) ?c LIMIT 20`,
    },
    optionalNotBound: {
      name: 'OPTIONAL + !BOUND',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label { ?c skos:prefLabel ?label OPTIONAL { ?c skos:altLabel ?alt } FILTER(!BOUND(?alt) && LANG(?label) = "en") } LIMIT 100`,
    },
    relatedJoin: {
      name: 'join of related concepts',
      text: `${SPARQL_PREFIXES} SELECT ?a ?b ?la ?lb { ?a skos:related ?b . ?a skos:prefLabel ?la . ?b skos:prefLabel ?lb FILTER(LANG(?la) = "en" && LANG(?lb) = "en") } LIMIT 200`,
    },
    largeOffset: {
      name: 'large OFFSET scan',
      text: `${SPARQL_PREFIXES} SELECT ?c ?label { ?c skos:prefLabel ?label } OFFSET ${n} LIMIT 10`,
    },
  } satisfies Record<string, BenchmarkQuery>;
}

/** The knowledge-graph queries of this package's benchmark, for a thesaurus of `n` concepts. */
export function benchmarkQueries(n: number): BenchmarkQuery[] {
  const q = thesaurusQueries(n);
  return [
    q.subjectLookup,
    q.labelsAndDefinitions,
    q.hierarchy,
    q.twoHopBroader,
    q.containsOrderBy,
    q.numericFilter,
    q.optionalNotBound,
    q.relatedJoin,
    q.largeOffset,
  ];
}
