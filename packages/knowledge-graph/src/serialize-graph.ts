import { type Quad, Writer } from 'n3';
import { KnowledgeGraphError } from './errors';
import type { RdfFormat } from './rdf-format';

const writerFormats = {
  turtle: 'Turtle',
  'n-triples': 'N-Triples',
  'n-quads': 'N-Quads',
  trig: 'TriG',
} as const;

/** Formats {@link serializeGraph} writes (JSON-LD is read, not written). */
export const WRITABLE_RDF_FORMATS: readonly RdfFormat[] = Object.keys(writerFormats) as RdfFormat[];

/**
 * Writes quads as Turtle, N-Triples, N-Quads or TriG (`UNSUPPORTED_FORMAT` for JSON-LD). Turtle
 * and TriG get the given prefixes.
 *
 * @example
 * serializeGraph(store.getQuads(null, null, null, null), 'turtle', { skos: 'http://www.w3.org/2004/02/skos/core#' });
 */
export function serializeGraph(
  quads: Iterable<Quad>,
  format: RdfFormat,
  prefixes: Record<string, string> = {},
): string {
  if (format === 'json-ld') {
    throw new KnowledgeGraphError(
      'UNSUPPORTED_FORMAT',
      'graphs are written as Turtle, N-Triples, N-Quads or TriG',
    );
  }
  const writer = new Writer({
    format: writerFormats[format],
    ...(format === 'turtle' || format === 'trig' ? { prefixes } : {}),
  });
  for (const quad of quads) writer.addQuad(quad);
  let out = '';
  writer.end((error, result: string) => {
    if (error) throw error;
    out = result;
  });
  return out;
}
