import { parseAccept } from '@dcg/sparql-subset';
import { type RdfFormat, rdfFormatFromMediaType } from './rdf-format';
import { WRITABLE_RDF_FORMATS } from './serialize-graph';

/**
 * The first format graphs can be written in (see {@link WRITABLE_RDF_FORMATS}) that an `Accept`
 * header names, by quality; N-Triples when there is no header or it accepts anything.
 *
 * @example
 * rdfFormatFromAccept('text/turtle;q=0.9, application/n-triples'); // 'n-triples'
 */
export function rdfFormatFromAccept(accept: string | undefined): RdfFormat | undefined {
  if (!accept) return 'n-triples';
  // Best first; equal qualities keep the header's order (the sort is stable).
  const ranges = parseAccept(accept)
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((range) => ({ type: `${range.type}/${range.subtype}` }));
  for (const { type } of ranges) {
    if (type === '*/*' || type === 'application/*') return 'n-triples';
    if (type === 'text/*') return 'turtle';
    const format = rdfFormatFromMediaType(type);
    if (format && WRITABLE_RDF_FORMATS.includes(format)) return format;
  }
  return undefined;
}
