import type { Quad } from 'n3';
import { KnowledgeGraphError } from './errors';
import { type ParseRdfOptions, parseRdf } from './parse-rdf';
import { readCapped } from './read-capped';
import type { SourceConfig } from './source-config';
import { requireIngestion } from './source-modes';
import type { UpstreamHeaders } from './upstream-credentials';

/** Options of {@link pullSourceGraph}. */
export interface PullOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Parsing options for the JSON-LD document (converter, depth limit). */
  parse?: Pick<ParseRdfOptions, 'convert' | 'maxJsonDepth' | 'maxXmlDepth'>;
  /** Credentials of each source's upstream (see `resolveUpstreamHeaders`), sent with its pull. */
  upstreamHeaders?: UpstreamHeaders;
}

/**
 * Pulls a source's graph from its adapter: `GET {baseUrl}/v1/graph/jsonld`, parsed as JSON-LD.
 * Throws `ingestion_disabled`, `no_base_url`, `upstream_timeout`, `upstream_error` or
 * `upstream_malformed` (with the line and column of a syntax error).
 *
 * @example
 * const quads = await pullSourceGraph(source, { timeoutMs: 60_000, maxBytes: 512 * 2 ** 20 });
 * await kb.replaceGraph(source.id, quads);
 */
export async function pullSourceGraph(source: SourceConfig, options: PullOptions): Promise<Quad[]> {
  requireIngestion(source);
  if (!source.baseUrl) {
    throw new KnowledgeGraphError(
      'no_base_url',
      `source "${source.id}" has no baseUrl to pull its graph from; upload it instead`,
    );
  }
  const url = `${source.baseUrl.replace(/\/+$/, '')}/v1/graph/jsonld`;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let text: string;
  try {
    const response = await (options.fetch ?? fetch)(url, {
      headers: {
        ...options.upstreamHeaders?.get(source.id),
        accept: 'application/ld+json, application/json',
      },
      signal,
      redirect: 'error',
    });
    if (!response.ok) {
      throw new KnowledgeGraphError(
        'upstream_error',
        `source "${source.id}" answered HTTP ${response.status} for ${url}`,
      );
    }
    text = await readCapped(response, options.maxBytes, source.id);
  } catch (error) {
    if (KnowledgeGraphError.isInstance(error)) throw error;
    if (timeout.aborted) {
      throw new KnowledgeGraphError(
        'upstream_timeout',
        `source "${source.id}" did not send its graph within ${options.timeoutMs} ms`,
        { cause: error },
      );
    }
    throw new KnowledgeGraphError('upstream_error', `source "${source.id}" could not be reached`, {
      cause: error,
    });
  }
  const parsed = await parseRdf(text, 'json-ld', { ...options.parse, baseIri: url });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new KnowledgeGraphError(
      'upstream_malformed',
      `the JSON-LD of source "${source.id}" is invalid at line ${issue?.line}, column ${issue?.column}: ${issue?.message}`,
    );
  }
  return parsed.data;
}
