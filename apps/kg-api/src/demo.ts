import { readFile } from 'node:fs/promises';
import { type KnowledgeBase, parseRdf, type SourceConfig } from '@dcg/knowledge-graph';

/** The demo source that `DCG_DEMO=1` adds when the configuration has no source "demo". */
export const DEMO_SOURCE: SourceConfig = {
  id: 'demo',
  name: 'Demo: data governance vocabulary (SKOS)',
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
};

/** The id of the passthrough source of the embedded demo (see {@link demoLoopbackSource}). */
export const DEMO_LOOPBACK_SOURCE_ID = 'demo-loopback';

/**
 * The passthrough source of the embedded demo, so that passthrough SPARQL answers offline: its
 * `sparqlEndpoint` is this kg-api's own internal endpoint, `/v1/graph/sparql`, called over HTTP
 * like any upstream. That endpoint evaluates over the ingested graphs and never forwards, so a
 * query cannot loop. A real deployment points a passthrough source at a real upstream (Virtuoso,
 * GraphDB…). The address is known once the server listens (port 0 picks one): `pointAt` sets it
 * then, before the first request can arrive (until then the source has no endpoint: 409).
 *
 * @example
 * const loopback = demoLoopbackSource();
 * // …open the knowledge base with loopback.source among the sources, listen, then:
 * loopback.pointAt(server.url); // sparqlEndpoint: 'http://127.0.0.1:8081/v1/graph/sparql'
 */
export function demoLoopbackSource(): { source: SourceConfig; pointAt(serverUrl: string): void } {
  const source: SourceConfig = {
    id: DEMO_LOOPBACK_SOURCE_ID,
    name: 'Demo: passthrough to this kg-api’s own SPARQL endpoint (production: a real upstream)',
    modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
  };
  return {
    source,
    pointAt(serverUrl) {
      const url = new URL('/v1/graph/sparql', serverUrl);
      // A server listening on every IPv6 address is reached on its loopback one.
      if (url.hostname === '[::]') url.hostname = '[::1]';
      source.sparqlEndpoint = url.href;
    },
  };
}

/**
 * Ingests the demo SKOS vocabulary into the source "demo".
 *
 * @example
 * await loadDemoVocabulary(kb); // { triples: … }
 */
export async function loadDemoVocabulary(kb: KnowledgeBase): Promise<{ triples: number }> {
  const text = await readFile(new URL('./demo/demo-vocabulary.ttl', import.meta.url), 'utf8');
  const parsed = await parseRdf(text, 'turtle');
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(
      `demo vocabulary: line ${issue?.line}, column ${issue?.column}: ${issue?.message}`,
    );
  }
  const info = await kb.replaceGraph(DEMO_SOURCE.id, parsed.data);
  return { triples: info.triples };
}
