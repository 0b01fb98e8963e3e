import { ALL_RESULTS_FORMATS, type ResultsFormat } from './results-formats';

const SD = 'http://www.w3.org/ns/sparql-service-description#';

/** The W3C format IRIs (http://www.w3.org/ns/formats/) of each results format. */
const FORMAT_IRIS: Readonly<Record<ResultsFormat, string>> = {
  json: 'http://www.w3.org/ns/formats/SPARQL_Results_JSON',
  xml: 'http://www.w3.org/ns/formats/SPARQL_Results_XML',
  csv: 'http://www.w3.org/ns/formats/SPARQL_Results_CSV',
  tsv: 'http://www.w3.org/ns/formats/SPARQL_Results_TSV',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: Turtle's IRIREF forbids them
const NOT_IN_IRIREF = /[\u0000-\u0020<>"{}|^`\\]/g;

function percentEncodeIri(iri: string): string {
  return iri.replace(
    NOT_IN_IRIREF,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * A SPARQL 1.1 Service Description (Turtle) of an endpoint that evaluates this subset: SPARQL 1.1
 * Query, the given results formats, and a default graph that is the union of the graphs
 * (`sd:UnionDefaultGraph`). Characters an IRI may not hold in Turtle are percent-encoded in the
 * endpoint (as a URL parser does), so a hostile URL cannot add triples.
 *
 * @example
 * ```ts
 * const turtle = serviceDescription({ endpoint: 'https://kg.example.org/v1/graph/sparql' });
 * ```
 */
export function serviceDescription(options: {
  endpoint: string;
  resultFormats?: readonly ResultsFormat[];
}): string {
  const formats = (options.resultFormats ?? ALL_RESULTS_FORMATS).map((f) => `<${FORMAT_IRIS[f]}>`);
  return [
    '@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .',
    '',
    '[] a sd:Service ;',
    `  sd:endpoint <${percentEncodeIri(options.endpoint)}> ;`,
    '  sd:supportedLanguage sd:SPARQL11Query ;',
    `  sd:resultFormat ${formats.join(', ')} ;`,
    '  sd:feature sd:UnionDefaultGraph ;',
    '  sd:defaultDataset [ a sd:Dataset ; sd:defaultGraph [ a sd:Graph ] ] .',
    '',
  ].join('\n');
}

/**
 * The same Service Description as {@link serviceDescription}, as a JSON-LD document (serialise it
 * with `JSON.stringify`, send it as `application/ld+json`).
 *
 * @example
 * ```ts
 * const doc = serviceDescriptionJsonLd({ endpoint: 'https://kg.example.org/v1/graph/sparql' });
 * ```
 */
export function serviceDescriptionJsonLd(options: {
  endpoint: string;
  resultFormats?: readonly ResultsFormat[];
}): Record<string, unknown> {
  return {
    '@context': { sd: SD },
    '@type': 'sd:Service',
    'sd:endpoint': { '@id': options.endpoint },
    'sd:supportedLanguage': { '@id': 'sd:SPARQL11Query' },
    'sd:resultFormat': (options.resultFormats ?? ALL_RESULTS_FORMATS).map((f) => ({
      '@id': FORMAT_IRIS[f],
    })),
    'sd:feature': { '@id': 'sd:UnionDefaultGraph' },
    'sd:defaultDataset': { '@type': 'sd:Dataset', 'sd:defaultGraph': { '@type': 'sd:Graph' } },
  };
}
