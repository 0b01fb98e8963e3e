import type { CallOptions } from '@dcg/client-transport';
import {
  type GraphInfo,
  GraphInfoSchema,
  SourceListSchema,
  type SourceSummary,
} from '@dcg/kg-schema';
import { connect, type KgClientOptions } from './create-kg-client';
import { parseWith, type Transport } from './http-transport';
import { KgClientError } from './kg-client-error';

/** Options of `replaceGraph`. */
export interface ReplaceGraphOptions extends CallOptions {
  /** The document's media type: `text/turtle`, `application/n-triples`, `application/ld+json`… */
  readonly mediaType: string;
  /** Allow a document with no triples to empty the graph (refused otherwise). */
  readonly allowEmpty?: boolean | undefined;
  /** Bytes sent so far, and the total. */
  readonly onUploadProgress?: ((sent: number, total: number) => void) | undefined;
  /** Called once every byte is sent, while kg-api parses and stores the graph. */
  readonly onUploaded?: (() => void) | undefined;
}

/** Reading the sources and replacing their graphs (a writer key). */
export interface SourceGraphs {
  /** The configured sources, their modes and their graphs (`GET /v1/sources`). */
  sources(options?: CallOptions): Promise<SourceSummary[]>;
  /**
   * Replaces the whole graph of a source with one RDF document (`PUT /v1/sources/{id}/graph`).
   * Not retried: a failed upload is reported, never sent twice.
   */
  replaceGraph(
    sourceId: string,
    document: Uint8Array | string,
    options: ReplaceGraphOptions,
  ): Promise<GraphInfo>;
}

/**
 * A client of the knowledge graph's sources and their graphs, for writers (a CLI, a CI job); kept
 * apart from `createKgClient` so that a browser app that only searches and queries does not ship
 * it. Same options and errors as `createKgClient`.
 *
 * @example
 * const graphs = createSourceGraphsClient({ baseUrl: 'http://127.0.0.1:8081', apiKey: writerKey });
 * await graphs.replaceGraph('demo', bytes, { mediaType: 'text/turtle' });
 */
export function createSourceGraphsClient(options: SourceGraphsClientOptions): SourceGraphs {
  const { uploadTimeoutMs = 60 * 60 * 1000, ...clientOptions } = options;
  // Uploads are never retried (a stream cannot be sent twice) and have their own time bound.
  const uploads = connect({ ...clientOptions, retries: 0, timeoutMs: uploadTimeoutMs }).transport;
  return sourceGraphs(connect(clientOptions).transport, uploads);
}

/** Options of {@link createSourceGraphsClient}. */
export interface SourceGraphsClientOptions extends KgClientOptions {
  /** Bound of one upload, sending and kg-api's parsing included. Default one hour. */
  readonly uploadTimeoutMs?: number | undefined;
}

function sourceGraphs(transport: Transport, uploads: Transport): SourceGraphs {
  return {
    async sources(options = {}) {
      const listing = await transport({
        method: 'get',
        path: 'v1/sources',
        accept: 'application/json',
        retry: 'idempotent',
        signal: options.signal,
        parse: parseWith(SourceListSchema),
      });
      return listing.sources;
    },
    replaceGraph(sourceId, document, options) {
      if (
        typeof sourceId !== 'string' ||
        sourceId === '' ||
        sourceId === '.' ||
        sourceId === '..'
      ) {
        return Promise.reject(
          new KgClientError(
            'invalid_argument',
            `source id ${JSON.stringify(sourceId)} is not valid`,
          ),
        );
      }
      if (typeof options?.mediaType !== 'string' || options.mediaType === '') {
        return Promise.reject(
          new KgClientError('invalid_argument', 'replaceGraph: mediaType is required'),
        );
      }
      return uploads({
        method: 'put',
        path: `v1/sources/${encodeURIComponent(sourceId)}/graph`,
        ...(options.allowEmpty ? { searchParams: { allowEmpty: 'true' } } : {}),
        ...uploadBody(
          typeof document === 'string' ? new TextEncoder().encode(document) : document,
          options,
        ),
        contentType: options.mediaType,
        accept: 'application/json',
        retry: 'idempotent',
        signal: options.signal,
        parse: parseWith(GraphInfoSchema),
      });
    },
  };
}

const uploadChunkBytes = 256 * 1024;

/**
 * The body of an upload. With a progress callback the bytes go as a stream of 256 KiB chunks
 * that reports each chunk as fetch pulls it, and `onUploaded` once the last one is (a stream
 * body needs Node, or HTTP/2 in a browser); without one, as they are.
 */
function uploadBody(
  bytes: Uint8Array,
  options: ReplaceGraphOptions,
): { body: Uint8Array | ReadableStream<Uint8Array>; headers: Record<string, string> } {
  const headers = { 'content-length': String(bytes.byteLength) };
  const { onUploadProgress, onUploaded } = options;
  if (bytes.byteLength === 0 || (!onUploadProgress && !onUploaded)) {
    return { body: bytes, headers };
  }
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.byteLength) {
        controller.close();
        return;
      }
      const chunk = bytes.subarray(sent, sent + uploadChunkBytes);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
      onUploadProgress?.(sent, bytes.byteLength);
      if (sent >= bytes.byteLength) onUploaded?.();
    },
  });
  return { body, headers };
}
