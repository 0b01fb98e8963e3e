import { Worker } from 'node:worker_threads';
import type { JsonLdConversion, JsonLdConverter } from '../parse-rdf';

/**
 * Default heap limit of the worker that converts one JSON-LD document (MB). A document the JSON-LD
 * parser cannot convert within it is refused; the service itself is not affected.
 */
export const DEFAULT_JSON_LD_WORKER_HEAP_MB = 1024;

/**
 * Builds a {@link JsonLdConverter} that converts JSON-LD in a worker thread with a bounded heap
 * (`maxHeapMb`), at most `maxWorkers` (default 1) documents at once while the others wait: the
 * JSON-LD parser buffers a whole `@graph` and then works through it in one synchronous stretch
 * (4.5 s for 6 MB), which on the main thread blocked every other request. The N-Quads it sends
 * back are parsed on the main thread in chunks.
 *
 * @example
 * const parsed = await parseRdf(text, 'json-ld', { jsonLd: jsonLdInWorker() });
 */
export function jsonLdInWorker(
  options: { maxHeapMb?: number; maxWorkers?: number } = {},
): JsonLdConverter {
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_JSON_LD_WORKER_HEAP_MB;
  // Memory stays within maxWorkers × maxHeapMb, however many documents arrive at once.
  const maxWorkers = options.maxWorkers ?? 1;
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (text, { baseIri }) => {
    if (running >= maxWorkers) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await convertInWorker(text, baseIri, maxHeapMb);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

function convertInWorker(
  text: string,
  baseIri: string | undefined,
  maxHeapMb: number,
): Promise<JsonLdConversion> {
  return new Promise<JsonLdConversion>((resolve) => {
    const worker = new Worker(new URL('./json-ld-worker-thread.js', import.meta.url), {
      workerData: { text, baseIri },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      // The worker needs no loader of the parent (tsx, vitest): it is plain JavaScript.
      execArgv: [],
    });
    let settled = false;
    const settle = (result: JsonLdConversion) => {
      if (settled) return;
      settled = true;
      resolve(result);
      void worker.terminate();
    };
    worker.on('message', (message: JsonLdConversion) => settle(message));
    worker.on('error', (error: Error & { code?: string }) =>
      settle({
        success: false,
        message:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `the JSON-LD document needs more than ${maxHeapMb} MB to convert`
            : `the JSON-LD document could not be converted: ${error.message}`,
      }),
    );
    worker.on('exit', (code) =>
      settle({ success: false, message: `the JSON-LD converter stopped (exit code ${code})` }),
    );
  });
}
