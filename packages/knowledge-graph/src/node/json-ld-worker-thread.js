// Converts one JSON-LD document to N-Quads off the main thread (see json-ld-worker.ts). Plain
// JavaScript so that it runs as a worker from the source tree and from dist alike.
import { parentPort, workerData } from 'node:worker_threads';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { Writer } from 'n3';

const { text, baseIri } = workerData;

function fail(message, position) {
  parentPort.postMessage({ success: false, message, position });
}

try {
  JSON.parse(text);
  const parser = new JsonLdParser({
    ...(baseIri ? { baseIRI: baseIri } : {}),
    // No remote contexts: nothing is fetched from URLs found in uploaded documents.
    documentLoader: {
      load: async (url) => {
        throw new Error(`remote JSON-LD context ${url} is not loaded; inline the context`);
      },
    },
  });
  const quads = [];
  let failed = false;
  parser.on('data', (quad) => quads.push(quad));
  parser.on('error', (error) => {
    if (failed) return;
    failed = true;
    fail(error.message);
  });
  parser.on('end', () => {
    if (failed) return;
    const nquads = new Writer({ format: 'N-Quads' }).quadsToString(quads);
    parentPort.postMessage({ success: true, nquads, count: quads.length });
  });
  parser.write(text);
  parser.end();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message)?.[1];
  fail(message, position === undefined ? text.length : Number(position));
}
