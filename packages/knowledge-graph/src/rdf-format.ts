/** RDF serialisations accepted for ingestion. */
export type RdfFormat = 'turtle' | 'n-triples' | 'n-quads' | 'trig' | 'json-ld' | 'rdf-xml';

const mediaTypes: Record<string, RdfFormat> = {
  'text/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'application/n-triples': 'n-triples',
  'text/plain': 'n-triples',
  'application/n-quads': 'n-quads',
  'text/x-nquads': 'n-quads',
  'application/trig': 'trig',
  'application/ld+json': 'json-ld',
  'application/json': 'json-ld',
  'application/rdf+xml': 'rdf-xml',
};

const extensions: Record<string, RdfFormat> = {
  ttl: 'turtle',
  turtle: 'turtle',
  nt: 'n-triples',
  nq: 'n-quads',
  trig: 'trig',
  jsonld: 'json-ld',
  json: 'json-ld',
  rdf: 'rdf-xml',
  owl: 'rdf-xml',
  xml: 'rdf-xml',
};

/** The media types accepted for upload, for documentation and error messages. */
export const RDF_MEDIA_TYPES: readonly string[] = Object.keys(mediaTypes);

/**
 * The RDF format named by a `Content-Type` header (parameters such as `charset` are ignored), or
 * `undefined` when it is not an RDF format we read.
 *
 * @example
 * rdfFormatFromMediaType('text/turtle; charset=utf-8'); // 'turtle'
 */
export function rdfFormatFromMediaType(contentType: string | undefined): RdfFormat | undefined {
  if (!contentType) return undefined;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaTypes[essence];
}

/**
 * The RDF format of a file name's extension (`.ttl`, `.nt`, `.nq`, `.trig`, `.jsonld`, `.rdf`,
 * `.owl`, `.xml`).
 *
 * @example
 * rdfFormatFromFileName('vocabulary.ttl'); // 'turtle'
 */
export function rdfFormatFromFileName(fileName: string): RdfFormat | undefined {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext ? extensions[ext] : undefined;
}

/**
 * The canonical media type of a format.
 *
 * @example
 * mediaTypeOfRdfFormat('trig'); // 'application/trig'
 */
export function mediaTypeOfRdfFormat(format: RdfFormat): string {
  switch (format) {
    case 'turtle':
      return 'text/turtle';
    case 'n-triples':
      return 'application/n-triples';
    case 'n-quads':
      return 'application/n-quads';
    case 'trig':
      return 'application/trig';
    case 'json-ld':
      return 'application/ld+json';
    case 'rdf-xml':
      return 'application/rdf+xml';
  }
}
