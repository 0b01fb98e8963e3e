// Benchmark of @dcg/kg-client against the real kg-api (spawned, 5,000 generated SKOS concepts):
// what the client's validation costs over a bare fetch, and what describe() in one SPARQL call
// saves over one call per IRI. Run with `pnpm bench` in this package. Prints ratios measured in
// the same run.

import { spawnKgApi } from '../src/__fixtures__/spawn-kg-api';
import { createKgClient } from '../src/create-kg-client';

const concepts = 5_000;
const writerKey = 'writer-key-0123456789';
const ns = 'https://bench.example.org/concept/';
const words = [
  'water',
  'river',
  'lake',
  'contract',
  'product',
  'policy',
  'quality',
  'port',
  'schema',
  'domain',
];

function vocabulary(): string {
  const lines = ['@prefix skos: <http://www.w3.org/2004/02/skos/core#> .'];
  for (let index = 0; index < concepts; index += 1) {
    const word = words[index % words.length];
    const other = words[(index * 7) % words.length];
    lines.push(
      `<${ns}${index}> skos:prefLabel "${word} ${other} ${index}"@en , "${word} ${index}"@it ;`,
      `  skos:altLabel "${other} alias ${index}"@en ;`,
      `  skos:definition "Definition of ${word} number ${index}, related to ${other}."@en` +
        (index > 0 ? ` ;\n  skos:broader <${ns}${Math.floor(index / 10)}> .` : ' .'),
    );
  }
  return lines.join('\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function time(runs: number, task: (index: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await task(index);
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

const format = (ms: number) => `${ms.toFixed(2)} ms`;

const api = await spawnKgApi({
  sources: [
    {
      id: 'bench',
      name: 'bench',
      modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
    },
  ],
  auth: { apiKeys: [{ name: 'writer', key: writerKey }] },
  sparql: { timeoutMs: 60_000, maxRows: 1_000_000 },
});
try {
  const upload = await fetch(`${api.url}/v1/sources/bench/graph`, {
    method: 'PUT',
    body: vocabulary(),
    headers: { 'content-type': 'text/turtle', authorization: `Bearer ${writerKey}` },
  });
  if (!upload.ok) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
  const client = createKgClient({ baseUrl: api.url, timeoutMs: 60_000 });
  const terms = Array.from(
    { length: 1_000 },
    (_, index) => `${words[index % words.length]} ${index}`,
  );

  const rawSearch = async (term: string) => {
    const url = new URL('/v1/search/query', api.url);
    url.searchParams.set('term', term);
    url.searchParams.set('limit', '20');
    return (await fetch(url)).json();
  };
  // Warm-up of both paths (JIT, connection pool, the server's caches).
  for (const term of terms.slice(0, 100)) {
    await rawSearch(term);
    await client.search(term, { limit: 20 });
  }
  // Interleaved, alternating which goes first, so machine noise hits both alike.
  const raw: number[] = [];
  const viaClient: number[] = [];
  for (const [index, term] of terms.entries()) {
    const pair = [
      async () => raw.push(...(await time(1, () => rawSearch(term)))),
      async () => viaClient.push(...(await time(1, () => client.search(term, { limit: 20 })))),
    ];
    if (index % 2 === 1) pair.reverse();
    for (const run of pair) await run();
  }
  raw.sort((a, b) => a - b);
  viaClient.sort((a, b) => a - b);

  const bigQuery = `PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?c ?label WHERE { ?c skos:prefLabel ?label } LIMIT 5000`;
  const rawSparql = await time(20, async () =>
    (
      await fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        body: bigQuery,
        headers: {
          'content-type': 'application/sparql-query',
          accept: 'application/sparql-results+json',
        },
      })
    ).json(),
  );
  const clientSparql = await time(20, () => client.select(bigQuery));

  const iris = Array.from({ length: 100 }, (_, index) => `${ns}${index * 37}`);
  const oneCall = await time(10, () => client.describe(iris, { lang: 'en' }));
  const perIri = await time(3, async () => {
    for (const iri of iris) await client.describe([iri], { lang: 'en' });
  });

  console.log(`kg-client benchmark, ${concepts} concepts, kg-api at ${api.url}`);
  console.log(
    `search (${terms.length} terms, limit 20): bare fetch p50 ${format(percentile(raw, 50))} p99 ${format(percentile(raw, 99))}; ` +
      `client p50 ${format(percentile(viaClient, 50))} p99 ${format(percentile(viaClient, 99))}; ` +
      `client/fetch p50 ratio ${(percentile(viaClient, 50) / percentile(raw, 50)).toFixed(2)}`,
  );
  console.log(
    `SPARQL 5,000 rows: bare fetch p50 ${format(percentile(rawSparql, 50))}; client (zod-validated) p50 ${format(percentile(clientSparql, 50))}; ` +
      `ratio ${(percentile(clientSparql, 50) / percentile(rawSparql, 50)).toFixed(2)}`,
  );
  console.log(
    `describe 100 IRIs: one SPARQL call p50 ${format(percentile(oneCall, 50))}; one call per IRI p50 ${format(percentile(perIri, 50))}; ` +
      `speed-up ${(percentile(perIri, 50) / percentile(oneCall, 50)).toFixed(1)}x`,
  );
} finally {
  await api.stop();
}
