import { type Quad, Writer } from 'n3';
import { KnowledgeGraphError } from './errors';
import type { RdfFormat } from './rdf-format';

const writerFormats = {
  turtle: 'Turtle',
  'n-triples': 'N-Triples',
  'n-quads': 'N-Quads',
  trig: 'TriG',
} as const;

const QUADS_PER_CHUNK = 10_000;

/** Formats {@link serializeGraph} writes (JSON-LD is read, not written). */
export const WRITABLE_RDF_FORMATS: readonly RdfFormat[] = Object.keys(writerFormats) as RdfFormat[];

/**
 * Writes quads as Turtle, N-Triples, N-Quads or TriG into a stream of UTF-8 chunks, a few
 * thousand quads at a time, so that a graph of any size is sent without one huge string.
 * `unsupported_format` for JSON-LD. Turtle and TriG get the given prefixes.
 *
 * @example
 * return new Response(serializeGraph(kb.quads('demo'), 'turtle', { skos: 'http://www.w3.org/2004/02/skos/core#' }));
 */
export function serializeGraph(
  quads: readonly Quad[],
  format: RdfFormat,
  prefixes: Record<string, string> = {},
): ReadableStream<Uint8Array> {
  if (format === 'json-ld') {
    throw new KnowledgeGraphError(
      'unsupported_format',
      'graphs are written as Turtle, N-Triples, N-Quads or TriG',
    );
  }
  const pending: string[] = [];
  const sink = {
    write: (chunk: string) => {
      pending.push(chunk);
      return true;
    },
    end: (done?: () => void) => done?.(),
  };
  const writer = new Writer(sink as never, {
    format: writerFormats[format],
    ...(format === 'turtle' || format === 'trig' ? { prefixes } : {}),
  });
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const end = Math.min(next + QUADS_PER_CHUNK, quads.length);
      for (; next < end; next++) writer.addQuad(quads[next]!);
      if (next >= quads.length) writer.end();
      if (pending.length > 0) controller.enqueue(encoder.encode(pending.splice(0).join('')));
      if (next >= quads.length) controller.close();
    },
  });
}
