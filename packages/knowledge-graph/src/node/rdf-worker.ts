import { Worker } from 'node:worker_threads';
import type { RdfConversion, RdfConverter } from '../parse-rdf';
import type { RdfFormat } from '../rdf-format';

/**
 * Default heap limit of the worker that converts one document (MB). A document the parser cannot
 * convert within it is refused; the service itself is not affected.
 */
export const DEFAULT_RDF_WORKER_HEAP_MB = 1024;

/**
 * Default longest conversion of one document (ms), counted from its worker's start (not while it
 * waits its turn). A 6 MB JSON-LD document converts in 4.5 s on an idle 2-core machine and in
 * 17–20 s at load average 13–36: a document still converting after two minutes is refused, and
 * the documents waiting behind it get their turn.
 */
export const DEFAULT_RDF_WORKER_TIMEOUT_MS = 120_000;

const FORMAT_NAMES: Record<RdfFormat, string> = {
  'json-ld': 'JSON-LD',
  'rdf-xml': 'RDF/XML',
  turtle: 'Turtle',
  'n-triples': 'N-Triples',
  'n-quads': 'N-Quads',
  trig: 'TriG',
};

/**
 * Builds an {@link RdfConverter} that converts a document to N-Quads in a worker thread with a
 * bounded heap (`maxHeapMb`) and a bounded time (`timeoutMs`; the worker is stopped when it runs
 * out), at most `maxWorkers` (default 1) documents at once while the others wait. `parseRdf` uses
 * it for JSON-LD and RDF/XML, whose parsers work through a document in long synchronous stretches
 * (4.5 s for 6 MB of JSON-LD; seconds for a few MB of RDF/XML), and for Turtle-family documents
 * with very long lines: on the main thread they blocked every other request. The N-Quads come
 * back in pieces and are parsed on the main thread in chunks.
 *
 * @example
 * const parsed = await parseRdf(text, 'rdf-xml', { convert: rdfInWorker() });
 */
export function rdfInWorker(
  options: { maxHeapMb?: number; maxWorkers?: number; timeoutMs?: number } = {},
): RdfConverter {
  const limits = {
    maxHeapMb: options.maxHeapMb ?? DEFAULT_RDF_WORKER_HEAP_MB,
    timeoutMs: options.timeoutMs ?? DEFAULT_RDF_WORKER_TIMEOUT_MS,
  };
  // Memory stays within maxWorkers × maxHeapMb, however many documents arrive at once.
  const maxWorkers = options.maxWorkers ?? 1;
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (text, request) => {
    if (running >= maxWorkers) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await convertInWorker(text, request, limits);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

type WorkerMessage =
  | { piece: string }
  | { result: { success: true } | Extract<RdfConversion, { success: false }> };

function convertInWorker(
  text: string,
  request: Parameters<RdfConverter>[1],
  { maxHeapMb, timeoutMs }: { maxHeapMb: number; timeoutMs: number },
): Promise<RdfConversion> {
  const name = FORMAT_NAMES[request.format];
  return new Promise<RdfConversion>((resolve) => {
    const worker = new Worker(new URL('./rdf-worker-thread.js', import.meta.url), {
      workerData: {
        text,
        format: request.format,
        baseIri: request.baseIri,
        entities: request.entities ? [...request.entities] : undefined,
      },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      // The worker needs no loader of the parent (tsx, vitest): it is plain JavaScript.
      execArgv: [],
    });
    const pieces: string[] = [];
    let settled = false;
    const settle = (result: RdfConversion) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle({
          success: false,
          exceeded: 'time',
          message: `the ${name} document takes longer than ${timeoutMs} ms to convert`,
        }),
      timeoutMs,
    );
    worker.on('message', (message: WorkerMessage) => {
      if ('piece' in message) pieces.push(message.piece);
      else settle(message.result.success ? { success: true, nquads: pieces } : message.result);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? {
              success: false,
              exceeded: 'memory',
              message: `the ${name} document needs more than ${maxHeapMb} MB to convert`,
            }
          : {
              success: false,
              message: `the ${name} document could not be converted: ${error.message}`,
            },
      ),
    );
    worker.on('exit', (code) =>
      settle({ success: false, message: `the ${name} converter stopped (exit code ${code})` }),
    );
  });
}
