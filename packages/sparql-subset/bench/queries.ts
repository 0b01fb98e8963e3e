import { conceptIri, EX, SKOS } from './thesaurus';

/** The knowledge-graph queries of the benchmark, for a thesaurus of `n` concepts. */
export function benchmarkQueries(n: number): { name: string; text: string }[] {
  const prefixes = `PREFIX skos: <${SKOS}> PREFIX ex: <${EX}> `;
  const some = [7, n >> 3, n >> 2, n >> 1, n - 3].map((i) => `<${conceptIri(i)}>`).join(' ');
  const middle = `<${conceptIri(Math.floor(n / 7))}>`;
  const deep = `<${conceptIri(n - 11)}>`;
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
      name: 'CONTAINS + ORDER BY/LIMIT/OFFSET',
      text: `${prefixes} SELECT ?c ?label { ?c skos:prefLabel ?label FILTER(CONTAINS(LCASE(?label), "quality")) } ORDER BY ?label LIMIT 10 OFFSET 10`,
    },
    {
      name: 'numeric filter ORDER BY DESC',
      text: `${prefixes} SELECT ?c ?rank { ?c ex:rank ?rank FILTER(?rank >= 995) } ORDER BY DESC(?rank) ?c LIMIT 20`,
    },
    {
      name: 'OPTIONAL + !BOUND',
      text: `${prefixes} SELECT ?c ?label { ?c skos:prefLabel ?label OPTIONAL { ?c skos:altLabel ?alt } FILTER(!BOUND(?alt) && LANG(?label) = "en") } LIMIT 100`,
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
