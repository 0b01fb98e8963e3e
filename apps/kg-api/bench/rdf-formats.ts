// Parse rate of each format read, on one synthetic SKOS vocabulary written as N-Triples, Turtle,
// JSON-LD and RDF/XML: how much slower a dump in RDF/XML (or JSON-LD) ingests than N-Triples.
//   pnpm --filter kg-api bench:formats                         # 20k concepts (~180k triples)
//   KG_BENCH_CONCEPTS=5000 pnpm --filter kg-api bench:formats  # a quick run
import { parseRdf, type RdfFormat, serializeGraph } from '@dcg/knowledge-graph';
import { rdfInWorker } from '@dcg/knowledge-graph/node';
import type { Quad } from 'n3';
import { makeVocabulary } from './synthetic-vocabulary';

const concepts = Number(process.env.KG_BENCH_CONCEPTS ?? 20_000);
const runs = Number(process.env.KG_BENCH_RUNS ?? 3);
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** RDF/XML with one rdf:Description per subject (n3 writes no RDF/XML). */
function toRdfXml(quads: readonly Quad[]): string {
  const out = [`<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF xmlns:rdf="${RDF}">`];
  let subject = '';
  for (const q of quads) {
    if (q.subject.value !== subject) {
      if (subject) out.push('  </rdf:Description>');
      subject = q.subject.value;
      out.push(`  <rdf:Description rdf:about="${xml(subject)}">`);
    }
    const cut =
      Math.max(q.predicate.value.lastIndexOf('#'), q.predicate.value.lastIndexOf('/')) + 1;
    const open = `<p:${q.predicate.value.slice(cut)} xmlns:p="${xml(q.predicate.value.slice(0, cut))}"`;
    if (q.object.termType === 'NamedNode') {
      out.push(`    ${open} rdf:resource="${xml(q.object.value)}"/>`);
    } else {
      const lang = q.object.termType === 'Literal' && q.object.language;
      out.push(
        `    ${open}${lang ? ` xml:lang="${lang}"` : ''}>${xml(q.object.value)}</p:${q.predicate.value.slice(cut)}>`,
      );
    }
  }
  if (subject) out.push('  </rdf:Description>');
  out.push('</rdf:RDF>\n');
  return out.join('\n');
}

function toJsonLd(quads: readonly Quad[]): string {
  const nodes = new Map<string, Record<string, unknown[]>>();
  for (const q of quads) {
    const node = nodes.get(q.subject.value) ?? { '@id': [q.subject.value] };
    nodes.set(q.subject.value, node);
    const values = node[q.predicate.value] ?? [];
    node[q.predicate.value] = values;
    if (q.object.termType === 'NamedNode') values.push({ '@id': q.object.value });
    else if (q.object.termType === 'Literal' && q.object.language)
      values.push({ '@value': q.object.value, '@language': q.object.language });
    else values.push(q.object.value);
  }
  return JSON.stringify({
    '@graph': [...nodes.values()].map(({ '@id': id, ...rest }) => ({ '@id': id?.[0], ...rest })),
  });
}

const vocabulary = makeVocabulary(concepts);
const base = await parseRdf(vocabulary.ntriples, 'n-triples');
if (!base.success) throw new Error(base.issues[0]?.message);
const documents: Array<[RdfFormat, string]> = [
  ['n-triples', vocabulary.ntriples],
  [
    'turtle',
    await new Response(
      serializeGraph(base.data, 'turtle', { skos: 'http://www.w3.org/2004/02/skos/core#' }),
    ).text(),
  ],
  ['json-ld', toJsonLd(base.data)],
  ['rdf-xml', toRdfXml(base.data)],
];
const convert = rdfInWorker();
console.log(
  `# parse rate by format: ${vocabulary.triples.toLocaleString('en')} triples, best of ${runs}`,
);
console.log('format      MiB    seconds  triples/s     vs N-Triples');
let ntRate = 0;
for (const [format, text] of documents) {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const parsed = await parseRdf(text, format, { convert });
    const seconds = (performance.now() - started) / 1000;
    if (!parsed.success) throw new Error(`${format}: ${parsed.issues[0]?.message}`);
    if (parsed.data.length !== vocabulary.triples) {
      throw new Error(`${format}: ${parsed.data.length} triples, expected ${vocabulary.triples}`);
    }
    best = Math.min(best, seconds);
  }
  const rate = vocabulary.triples / best;
  if (format === 'n-triples') ntRate = rate;
  console.log(
    `${format.padEnd(10)} ${(text.length / 2 ** 20).toFixed(1).padStart(5)}  ${best.toFixed(2).padStart(7)}  ${Math.round(rate).toLocaleString('en').padStart(10)}  ${(ntRate / rate).toFixed(2).padStart(6)}× slower`,
  );
}
process.exit(0);
