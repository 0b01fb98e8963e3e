// Converts one RDF document to N-Quads off the main thread (see rdf-worker.ts): JSON-LD, RDF/XML
// or a Turtle-family document. Plain JavaScript so that it runs as a worker from the source tree
// and from dist alike. The N-Quads go back in pieces of whole lines, so that the main thread never
// receives (or parses) one huge string in one go.
import { parentPort, workerData } from 'node:worker_threads';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { Parser, Writer } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

const { text, format, baseIri, entities } = workerData;
const PIECE = 128 * 1024;
const writer = new Writer({ format: 'N-Quads' });
let piece = '';
let done = false;

function emit(quad) {
  piece += writer.quadToString(quad.subject, quad.predicate, quad.object, quad.graph);
  if (piece.length >= PIECE) {
    parentPort.postMessage({ piece });
    piece = '';
  }
}
function succeed() {
  if (done) return;
  done = true;
  if (piece) parentPort.postMessage({ piece });
  parentPort.postMessage({ result: { success: true } });
}
function fail(failure) {
  if (done) return;
  done = true;
  parentPort.postMessage({ result: { success: false, ...failure } });
}
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

function jsonLd() {
  try {
    JSON.parse(text);
  } catch (error) {
    const message = messageOf(error);
    const position = /position (\d+)/.exec(message)?.[1];
    fail({ message, position: position === undefined ? text.length : Number(position) });
    return;
  }
  const parser = new JsonLdParser({
    ...(baseIri ? { baseIRI: baseIri } : {}),
    // No remote contexts: nothing is fetched from URLs found in uploaded documents.
    documentLoader: {
      load: async (url) => {
        throw new Error(`remote JSON-LD context ${url} is not loaded; inline the context`);
      },
    },
  });
  parser.on('data', emit);
  parser.on('error', (error) => fail({ message: error.message }));
  parser.on('end', succeed);
  parser.write(text);
  parser.end();
}

// As parse-rdf-xml.ts does in the main thread: the preflight's expanded entities replace the
// library's reading of the DOCTYPE, and closing the XML parser reports a truncated document.
function rdfXml() {
  const parser = new RdfXmlParser({
    trackPosition: true,
    ...(baseIri ? { baseIRI: baseIri } : {}),
  });
  const sax = parser.saxParser;
  sax.on('doctype', () => {
    for (const [name, value] of entities ?? []) {
      Object.defineProperty(sax.ENTITIES, name, { value, enumerable: true });
    }
  });
  const failWhere = (error) =>
    fail({ message: messageOf(error), line: sax.line, column: sax.column });
  parser.on('error', failWhere);
  parser.on('data', emit);
  parser.on('finish', () => {
    if (done) return;
    try {
      sax.close();
    } catch (error) {
      failWhere(error);
      return;
    }
    succeed();
  });
  parser.write(text);
  parser.end();
}

// The whole text at once: n3 then measures every token from the start of its line (after the
// indentation), which is how parse-rdf.ts locates the error.
function n3() {
  const names = { turtle: 'Turtle', 'n-triples': 'N-Triples', 'n-quads': 'N-Quads', trig: 'TriG' };
  new Parser({ format: names[format], ...(baseIri ? { baseIRI: baseIri } : {}) }).parse(
    text,
    (error, quad) => {
      if (error) {
        const { line, token, previousToken } = error.context ?? {};
        fail({ message: messageOf(error), n3: { line, token, previousToken } });
      } else if (quad) emit(quad);
      else succeed();
    },
  );
}

try {
  if (format === 'json-ld') jsonLd();
  else if (format === 'rdf-xml') rdfXml();
  else n3();
} catch (error) {
  fail({ message: messageOf(error) });
}
