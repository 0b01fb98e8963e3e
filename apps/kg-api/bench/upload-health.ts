// /health while an upload is parsed (issue 21): for each document, the longest event-loop stall
// (perf_hooks.monitorEventLoopDelay) and the p99 / max latency of /health polled every 10 ms
// while the upload runs, on a kg-api in this process.
//   node --conditions=@dcg/source --import tsx bench/upload-health.ts
//   KG_BENCH_ONLY='Turtle|N-Triples' …   # the documents whose name matches
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  deepRdfXml,
  deepXmlLiteral,
  nTriples,
  rdfXmlConcepts,
  turtleDeepBlankNodes,
  turtleNestedBlankNodes,
} from '../src/__fixtures__/costly-documents';
import { startVocabKgApi } from '../src/__fixtures__/vocab-kg-api';

const documents: Array<[string, string, string]> = [
  ['RDF/XML 3.8 MB (10,000 concepts)', rdfXmlConcepts(10_000), 'application/rdf+xml'],
  ['RDF/XML 8.7 MB (23,000 concepts)', rdfXmlConcepts(23_000), 'application/rdf+xml'],
  ['RDF/XML nested 4,000 deep', deepRdfXml(4_000), 'application/rdf+xml'],
  ['RDF/XML literal nested 200,000 deep', deepXmlLiteral(200_000), 'application/rdf+xml'],
  ['Turtle 1.6 MB nested blank nodes', turtleNestedBlankNodes(13_000), 'text/turtle'],
  [
    'Turtle 1.7 MB blank nodes 100,000 deep, one line',
    turtleDeepBlankNodes(100_000),
    'text/turtle',
  ],
  ['N-Triples 8.6 MB', nTriples(80_000), 'application/n-triples'],
];

const only = new RegExp(process.env.KG_BENCH_ONLY ?? '.');
const kg = await startVocabKgApi({ prefix: 'kg-bench-upload-' });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(
  '| document | status | upload s | max event-loop stall ms | /health p99 ms | /health max ms | /health answers |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [name, body, type] of documents.filter(([name]) => only.test(name))) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const latencies: number[] = [];
  let uploading = true;
  const poll = (async () => {
    while (uploading) {
      const started = performance.now();
      await (await fetch(`${kg.api.url}/health`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  delay.enable();
  const started = performance.now();
  // A 60 s deadline: the old code never finished the deepest documents.
  const status = await Promise.race([
    kg.upload(body, type).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    }),
    new Promise<string>((r) => setTimeout(() => r('no answer in 60 s'), 60_000)),
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  delay.disable();
  uploading = false;
  await poll;
  latencies.sort((a, b) => a - b);
  console.log(
    `| ${name} | ${status} | ${seconds} | ${(delay.max / 1e6).toFixed(0)} | ${percentile(latencies, 99).toFixed(0)} | ${(latencies.at(-1) ?? 0).toFixed(0)} | ${latencies.length} |`,
  );
}
await kg.close();
process.exit(0);
