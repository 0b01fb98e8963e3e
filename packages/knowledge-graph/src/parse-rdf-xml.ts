import { DataFactory, type Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import type { ParseRdfResult, RdfSyntaxIssue } from './parse-rdf';

/** Characters written to the XML parser between two turns of the event loop. */
const CHUNK = 1 << 20;

/**
 * Parses an RDF/XML document (many SKOS and OWL dumps ship as RDF/XML) with
 * `rdfxml-streaming-parser`, fed in chunks so that a large upload does not block the event loop.
 * Every quad goes to the default graph. The first error is reported with its line and column; a
 * document that ends inside an element is an error too. Entities declared in the DOCTYPE are
 * expanded once (no nesting), external ones are refused: nothing is read from files or URLs.
 *
 * @example
 * const parsed = await parseRdfXml('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', {});
 */
export async function parseRdfXml(
  text: string,
  options: { baseIri?: string; onProgress?: (consumed: number) => void; chunkSize?: number },
): Promise<ParseRdfResult> {
  if (text.length === 0) return { success: true, data: [] };
  const parser = new RdfXmlParser({
    dataFactory: DataFactory as never,
    trackPosition: true,
    ...(options.baseIri ? { baseIRI: options.baseIri } : {}),
  });
  // The library never closes its XML parser, so a truncated document would pass: closing it
  // ourselves reports the unclosed elements.
  const sax = (parser as unknown as { saxParser: { close(): void; line: number; column: number } })
    .saxParser;
  const quads: Quad[] = [];
  const graph = DataFactory.defaultGraph();
  let failure: RdfSyntaxIssue | undefined;
  const failed = new Promise<void>((resolve) => {
    parser.on('error', (error: Error) => {
      failure ??= locate(error, sax);
      resolve();
    });
  });
  parser.on('data', (quad: Quad) => {
    quads.push(
      quad.graph.termType === 'DefaultGraph'
        ? quad
        : DataFactory.quad(quad.subject, quad.predicate, quad.object, graph),
    );
  });
  const chunkSize = Math.max(1, options.chunkSize ?? CHUNK);
  for (let offset = 0; offset < text.length && !failure; offset += chunkSize) {
    const end = Math.min(text.length, offset + chunkSize);
    await new Promise<void>((resolve) => {
      parser.write(text.slice(offset, end), () => resolve());
    });
    options.onProgress?.(end);
    if (end < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!failure) {
    await Promise.race([
      failed,
      new Promise<void>((resolve) => {
        parser.once('finish', () => resolve());
        parser.end();
      }),
    ]);
  }
  if (!failure) {
    try {
      sax.close();
    } catch (error) {
      failure ??= locate(error as Error, sax);
    }
  }
  return failure ? { success: false, issues: [failure] } : { success: true, data: quads };
}

// Both layers locate an error where the parser stopped: the last character of the offending
// tag. The XML parser says `4:58: message` (that character, 1-based), the RDF/XML layer
// `Line 4 column 59: message` (one past it).
function locate(error: Error, sax: { line: number; column: number }): RdfSyntaxIssue {
  const message = error.message ?? String(error);
  const at = (line: string | undefined, column: number, text: string | undefined) => ({
    line: Number(line),
    column: Math.max(1, column),
    message: text ?? message,
  });
  const xml = /^(\d+):(\d+): (.*)$/s.exec(message);
  if (xml) return at(xml[1], Number(xml[2]), xml[3]);
  const rdf = /^Line (\d+) column (\d+): (.*)$/s.exec(message);
  if (rdf) return at(rdf[1], Number(rdf[2]) - 1, rdf[3]);
  return at(String(sax.line), sax.column, message);
}
