import { Worker } from 'node:worker_threads';
import type { JsonLdConversion, JsonLdConverter } from '../parse-rdf';

/**
 * Default heap limit of the worker that converts one JSON-LD document (MB). A document the JSON-LD
 * parser cannot convert within it is refused; the service itself is not affected.
 */
export const DEFAULT_JSON_LD_WORKER_HEAP_MB = 1024;

/**
 * Default longest conversion of one JSON-LD document (ms), counted from its worker's start (not
 * while it waits its turn). A 6 MB document converts in 4.5 s on an idle 2-core machine and in
 * 17–20 s at load average 13–36: a document still converting after two minutes is refused, and
 * the documents waiting behind it get their turn.
 */
export const DEFAULT_JSON_LD_TIMEOUT_MS = 120_000;

/**
 * Builds a {@link JsonLdConverter} that converts JSON-LD in a worker thread with a bounded heap
 * (`maxHeapMb`) and a bounded time (`timeoutMs`; the worker is stopped when it runs out), at most
 * `maxWorkers` (default 1) documents at once while the others wait: the
 * JSON-LD parser buffers a whole `@graph` and then works through it in one synchronous stretch
 * (4.5 s for 6 MB), which on the main thread blocked every other request. The N-Quads it sends
 * back are parsed on the main thread in chunks.
 *
 * @example
 * const parsed = await parseRdf(text, 'json-ld', { jsonLd: jsonLdInWorker() });
 */
export function jsonLdInWorker(
  options: { maxHeapMb?: number; maxWorkers?: number; timeoutMs?: number } = {},
): JsonLdConverter {
  const limits = {
    maxHeapMb: options.maxHeapMb ?? DEFAULT_JSON_LD_WORKER_HEAP_MB,
    timeoutMs: options.timeoutMs ?? DEFAULT_JSON_LD_TIMEOUT_MS,
  };
  // Memory stays within maxWorkers × maxHeapMb, however many documents arrive at once.
  const maxWorkers = options.maxWorkers ?? 1;
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (text, { baseIri }) => {
    if (running >= maxWorkers) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await convertInWorker(text, baseIri, limits);
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

function convertInWorker(
  text: string,
  baseIri: string | undefined,
  { maxHeapMb, timeoutMs }: { maxHeapMb: number; timeoutMs: number },
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
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle({
          success: false,
          exceeded: 'time',
          message: `the JSON-LD document takes longer than ${timeoutMs} ms to convert`,
        }),
      timeoutMs,
    );
    worker.on('message', (message: JsonLdConversion) => settle(message));
    worker.on('error', (error: Error & { code?: string }) =>
      settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? {
              success: false,
              exceeded: 'memory',
              message: `the JSON-LD document needs more than ${maxHeapMb} MB to convert`,
            }
          : {
              success: false,
              message: `the JSON-LD document could not be converted: ${error.message}`,
            },
      ),
    );
    worker.on('exit', (code) =>
      settle({ success: false, message: `the JSON-LD converter stopped (exit code ${code})` }),
    );
  });
}
