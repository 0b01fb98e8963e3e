import { DataFactory, type Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import type { ParseRdfResult, RdfSyntaxIssue } from './parse-rdf-result';

/** Characters written to the XML parser between two turns of the event loop. */
const CHUNK = 1 << 20;

/**
 * Parses an RDF/XML document (many SKOS and OWL dumps ship as RDF/XML) with
 * `rdfxml-streaming-parser` in this thread, fed in chunks. Every quad goes to the default graph.
 * The first error is reported with its line and column; a document that ends inside an element
 * is an error too. `entities` are those `preflightXml` read from the DOCTYPE, expanded (the
 * library's own reading expands no reference inside an entity); nothing is read from files or
 * URLs. Called by `parseRdf` after the preflight; a worker thread does the same
 * (`rdf-worker-thread.js`).
 *
 * @example
 * const parsed = await parseRdfXml('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', { entities: new Map() });
 */
export async function parseRdfXml(
  text: string,
  options: {
    baseIri?: string | undefined;
    onProgress?: ((consumed: number) => void) | undefined;
    chunkSize?: number | undefined;
    entities: ReadonlyMap<string, string>;
  },
): Promise<ParseRdfResult> {
  if (text.length === 0) return { success: true, data: [] };
  const parser = new RdfXmlParser({
    dataFactory: DataFactory as never,
    trackPosition: true,
    ...(options.baseIri ? { baseIRI: options.baseIri } : {}),
  });
  // The library never closes its XML parser, so a truncated document would pass: closing it
  // ourselves reports the unclosed elements.
  const sax = (parser as unknown as { saxParser: SaxParser }).saxParser;
  installEntities(sax, options.entities);
  const quads: Quad[] = [];
  const graph = DataFactory.defaultGraph();
  let failure: RdfSyntaxIssue | undefined;
  const failed = new Promise<void>((resolve) => {
    parser.on('error', (error: Error) => {
      failure ??= locateXmlError(error.message ?? String(error), sax);
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
      failure ??= locateXmlError((error as Error).message ?? String(error), sax);
    }
  }
  return failure ? { success: false, issues: [failure] } : { success: true, data: quads };
}

interface SaxParser {
  close(): void;
  on(event: 'doctype', handler: (doctype: string) => void): void;
  ENTITIES: Record<string, string>;
  line: number;
  column: number;
}

// The library reads `<!ENTITY name "value">` with a regular expression and inserts the value as
// it stands: the expanded ones replace it (the XML parser keeps one handler per event).
function installEntities(sax: SaxParser, entities: ReadonlyMap<string, string>): void {
  sax.on('doctype', () => {
    for (const [name, value] of entities) {
      Object.defineProperty(sax.ENTITIES, name, { value, enumerable: true });
    }
  });
}

/**
 * Both layers locate an error where the parser stopped: the last character of the offending
 * tag. The XML parser says `4:58: message` (that character, 1-based), the RDF/XML layer
 * `Line 4 column 59: message` (one past it); other errors are placed where the parser stands.
 *
 * @example
 * locateXmlError('4:58: unexpected end', { line: 1, column: 1 }); // { line: 4, column: 58, message: 'unexpected end' }
 */
export function locateXmlError(
  message: string,
  sax: { line: number; column: number },
): RdfSyntaxIssue {
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
