import { readFile } from 'node:fs/promises';
import { type KnowledgeBase, parseRdf, type SourceConfig } from '@dcg/knowledge-graph';

/** The demo source that `DCG_DEMO=1` adds when the configuration has no source "demo". */
export const DEMO_SOURCE: SourceConfig = {
  id: 'demo',
  name: 'Demo: data governance vocabulary (SKOS)',
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
};

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
