import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnowledgeBase, parseRdf, SearchConfigSchema } from '@dcg/knowledge-graph';
import { FileGraphPersistence, rdfInWorker } from '@dcg/knowledge-graph/node';
import { rdfXmlConcepts } from './src/__fixtures__/costly-documents';
const text = rdfXmlConcepts(23_000);
const convert = rdfInWorker();
const kb = await KnowledgeBase.open({ sources: [{ id: 'a', name: 'a', modes: { ingestion: { enabled: true }, passthrough: { enabled: false } } }], search: SearchConfigSchema.parse({}), persistence: new FileGraphPersistence(await mkdtemp(join(tmpdir(), 'kgp-'))) });
for (let run = 0; run < 2; run++) {
  const t0 = performance.now();
  let last = performance.now();
  const gaps: string[] = [];
  const mark = (s: string) => gaps.push(`${s} at ${Math.round(performance.now() - t0)}`);
  const timer = setInterval(() => { const now = performance.now(); if (now - last > 100) gaps.push(`gap ${Math.round(now - last)} ms ending at ${Math.round(now - t0)}`); last = now; }, 5);
  const bytes = new TextEncoder().encode(text);
  mark('encoded');
  const decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  mark('decoded');
  const r = await parseRdf(decoded, 'rdf-xml', { convert: async (t, q) => { mark('convert start'); const x = await convert(t, q); mark('convert end'); return x; } });
  mark('parsed');
  if (r.success) await kb.replaceGraph('a', r.data);
  mark('replaced');
  clearInterval(timer);
  console.log(run, gaps.join('\n'));
}
process.exit(0);
