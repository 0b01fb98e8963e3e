// kg-api benchmark: ingestion rate and memory, in-process search latency over 1,000 fixed terms,
// and SPARQL over HTTP against Virtuoso on the same data and queries, as ratios in one run.
//   pnpm --filter kg-api bench                       # 100k concepts (~0.9M triples)
//   KG_BENCH_CONCEPTS=10000 pnpm --filter kg-api bench   # a quick run
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { KnowledgeBase, parseRdf, SearchConfigSchema } from '@dcg/knowledge-graph';
import { FileGraphPersistence } from '@dcg/knowledge-graph/node';
import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { startKgApi } from '../src/server';
import { BENCH_BASE, makeSearchTerms, makeVocabulary } from './synthetic-vocabulary';

const concepts = Number(process.env.KG_BENCH_CONCEPTS ?? 100_000);
const sparqlRuns = Number(process.env.KG_BENCH_SPARQL_RUNS ?? 30);
const withSparql = process.env.KG_BENCH_SPARQL !== '0';
const GRAPH = 'https://bench.dcg.example.org/graph';
const GRAPH_THESAURUS = 'https://bench.dcg.example.org/thesaurus';
const BENCH_KEY = 'bench-writer-key-0123456789';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

const dir = await mkdtemp(join(tmpdir(), 'kg-bench-'));
const source = {
  id: 'bench',
  name: 'bench',
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
};
try {
  console.log(`# kg-api benchmark: ${concepts.toLocaleString('en')} concepts`);
  const vocabulary = makeVocabulary(concepts);
  const ntFile = join(dir, 'bench.nt');
  await writeFile(ntFile, vocabulary.ntriples);
  console.log(
    `data: ${vocabulary.triples.toLocaleString('en')} triples, ${mib(vocabulary.ntriples.length)} MiB of N-Triples`,
  );

  // --- ingestion -----------------------------------------------------------------------------
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const parsed = await parseRdf(vocabulary.ntriples, 'n-triples');
  if (!parsed.success) throw new Error(parsed.issues[0]?.message);
  const t1 = performance.now();
  let kb: KnowledgeBase | undefined = await KnowledgeBase.open({
    sources: [source],
    search: SearchConfigSchema.parse({}),
    persistence: new FileGraphPersistence(join(dir, 'data')),
  });
  const info = await kb.replaceGraph('bench', parsed.data);
  const t2 = performance.now();
  const ingestCpu = process.cpuUsage(cpu0);
  parsed.data.length = 0;
  gc();
  const memory = process.memoryUsage();
  const parseRate = info.triples / ((t1 - t0) / 1000);
  const totalRate = info.triples / ((t2 - t0) / 1000);
  console.log('\n## ingestion (in-process, parse + durable write + store + search index)');
  console.log(
    `parse N-Triples:       ${((t1 - t0) / 1000).toFixed(2)} s  (${Math.round(parseRate).toLocaleString('en')} triples/s)`,
  );
  console.log(`persist+store+index:   ${((t2 - t1) / 1000).toFixed(2)} s`);
  console.log(
    `total:                 ${((t2 - t0) / 1000).toFixed(2)} s  (${Math.round(totalRate).toLocaleString('en')} triples/s)`,
  );
  const ingestCpuSeconds = (ingestCpu.user + ingestCpu.system) / 1e6;
  console.log(
    `CPU time:              ${ingestCpuSeconds.toFixed(2)} s  (${Math.round(info.triples / ingestCpuSeconds).toLocaleString('en')} triples per CPU-second)`,
  );
  console.log(
    `memory held:           heap +${mib(memory.heapUsed - heapBefore)} MiB, rss +${mib(memory.rss - rssBefore)} MiB (rss ${mib(memory.rss)} MiB)`,
  );

  // --- search --------------------------------------------------------------------------------
  const terms = makeSearchTerms(vocabulary);
  for (const term of terms) kb.search(term, { offset: 0, limit: 10 }); // warm-up
  const latencies: number[] = [];
  const cpuTimes: number[] = [];
  let hits = 0;
  for (let round = 0; round < 3; round++) {
    for (const term of terms) {
      const cpu = process.cpuUsage();
      const s = performance.now();
      const page = kb.search(term, { offset: 0, limit: 10 });
      latencies.push(performance.now() - s);
      const used = process.cpuUsage(cpu);
      cpuTimes.push((used.user + used.system) / 1000);
      if (round === 0 && page.totalResults > 0) hits++;
    }
  }
  latencies.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(`\n## search (in-process, ${terms.length} fixed terms × 3, limit 10)`);
  console.log(`terms with results: ${hits}/${terms.length}`);
  console.log(
    `wall clock: p50 ${fmt(p50)} (goal < 1 ms)   p99 ${fmt(p99)} (goal < 10 ms)   max ${fmt(latencies.at(-1)!)}`,
  );
  // On a shared, busy machine wall clock includes waiting for a core; CPU time does not.
  console.log(
    `CPU time:   p50 ${fmt(percentile(cpuTimes, 50))}   p99 ${fmt(percentile(cpuTimes, 99))}   (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
  );

  // The in-process knowledge base is dropped: the HTTP servers below load their own.
  kb = undefined;
  gc();

  // --- SPARQL over HTTP vs Virtuoso ------------------------------------------------------------
  const availability = withSparql
    ? await isVirtuosoAvailable()
    : { available: false as const, reason: 'KG_BENCH_SPARQL=0' };
  const c = (i: number) => `<${BENCH_BASE}${i}>`;
  const mid = Math.floor(concepts / 2);
  const ownQueries: BenchQuery[] = [
    {
      name: 'labels of one concept',
      text: `PREFIX skos: <${SKOS}> SELECT ?label WHERE { ${c(mid)} skos:prefLabel ?label }`,
    },
    { name: 'describe one concept', text: `SELECT ?p ?o WHERE { ${c(mid)} ?p ?o }` },
    {
      name: 'narrower with English labels, ordered',
      text: `PREFIX skos: <${SKOS}> SELECT ?n ?label WHERE { ?n skos:broader ${c(12)} ; skos:prefLabel ?label FILTER(lang(?label) = "en") } ORDER BY ?label LIMIT 50`,
    },
    {
      name: 'children with optional alt labels',
      text: `PREFIX skos: <${SKOS}> SELECT ?c ?label ?alt WHERE { ?c skos:broader ${c(3)} ; skos:prefLabel ?label . OPTIONAL { ?c skos:altLabel ?alt } } LIMIT 100`,
    },
    {
      name: 'broader chain, two hops, with labels',
      text: `PREFIX skos: <${SKOS}> SELECT ?p ?gp ?l WHERE { ${c(mid)} skos:broader ?p . ?p skos:broader ?gp . ?gp skos:prefLabel ?l }`,
    },
    {
      name: 'related concepts with definitions',
      text: `PREFIX skos: <${SKOS}> SELECT ?r ?d WHERE { ${c(mid)} skos:related ?r . ?r skos:definition ?d }`,
    },
    {
      name: 'ASK a broader link',
      text: `PREFIX skos: <${SKOS}> ASK { ${c(mid)} skos:broader ${c(Math.floor((mid - 1) / 10))} }`,
    },
    {
      name: 'scan: labels containing a word',
      text: `PREFIX skos: <${SKOS}> SELECT ?c ?l WHERE { ?c skos:altLabel ?l FILTER(CONTAINS(LCASE(STR(?l)), "${vocabulary.words[3]}")) } LIMIT 20`,
    },
  ];

  const ratios: number[] = [];
  let sparqlSpeedup: number | undefined;
  let subsetBench: SparqlSubsetBench | undefined;
  let virtuoso: Awaited<ReturnType<typeof startVirtuoso>> | undefined;
  try {
    if (availability.available) {
      virtuoso = await startVirtuoso({
        ini: {
          Parameters: { NumberOfBuffers: 170_000, MaxDirtyBuffers: 130_000 },
          SPARQL: { ResultSetMaxRows: 1_000_000 },
        },
      });
      const l0 = performance.now();
      await virtuoso.load(ntFile, GRAPH);
      const loadSeconds = (performance.now() - l0) / 1000;
      console.log(
        `\nVirtuoso bulk load: ${loadSeconds.toFixed(2)} s (${Math.round(vocabulary.triples / loadSeconds).toLocaleString('en')} triples/s); ours in-process: ${Math.round(totalRate).toLocaleString('en')} triples/s → ratio ${(totalRate / (vocabulary.triples / loadSeconds)).toFixed(2)}× Virtuoso's rate`,
      );
    } else if (withSparql) {
      console.log(
        `\nVirtuoso not available (${availability.reason}): SPARQL timings of kg-api only`,
      );
    }

    if (withSparql) {
      // 1. Typical knowledge-graph queries on the vocabulary above.
      const api = await startKgApi({
        config: {
          sources: [source],
          sparql: { timeoutMs: 60_000, maxRows: 1_000_000 },
          // The limiter runs (its cost is measured) but never refuses: the bench is one client.
          rateLimit: { anonymous: { requestsPerSecond: 1e6, burst: 1e6 } },
        },
        dataDir: join(dir, 'data'),
        logger: createLogger('bench', { level: 'silent' }),
      });
      try {
        // Search end to end: the same 1,000 terms over HTTP, one request at a time.
        const httpLatencies: number[] = [];
        for (const term of terms.slice(0, 200)) {
          await (await fetch(`${api.url}/v1/search/query?term=${encodeURIComponent(term)}`)).json();
        }
        for (const term of terms) {
          const s = performance.now();
          const response = await fetch(
            `${api.url}/v1/search/query?term=${encodeURIComponent(term)}&limit=10`,
          );
          await response.json();
          httpLatencies.push(performance.now() - s);
        }
        httpLatencies.sort((a, b) => a - b);
        console.log(
          `\n## search over HTTP (${terms.length} terms, sequential, after 200 warm-up requests): p50 ${fmt(percentile(httpLatencies, 50))}   p99 ${fmt(percentile(httpLatencies, 99))}`,
        );
        ratios.push(
          ...(await compareSparql('the vocabulary above', api.url, virtuoso, GRAPH, ownQueries)),
        );
      } finally {
        await api.close();
      }

      // 2. The benchmark queries of @dcg/sparql-subset on its own thesaurus, same size. They are
      // not part of its published API, so they are loaded by path at run time: a change there
      // skips this part of the benchmark instead of breaking this package's typecheck.
      subsetBench = await loadSparqlSubsetBench();
      if (!subsetBench) {
        console.log(
          '\n@dcg/sparql-subset benchmark queries not found at packages/sparql-subset/bench: skipped',
        );
      }
    }
    if (withSparql && subsetBench) {
      const { benchmarkQueries, generateThesaurus, toNTriples } = subsetBench;
      const thesaurus = toNTriples(generateThesaurus(concepts));
      const thesaurusFile = join(dir, 'thesaurus.nt');
      await writeFile(thesaurusFile, thesaurus);
      const api2 = await startKgApi({
        config: {
          sources: [{ ...source, id: 'thesaurus' }],
          sparql: { timeoutMs: 60_000, maxRows: 1_000_000 },
          auth: { apiKeys: [{ name: 'bench', key: BENCH_KEY }] },
          rateLimit: { authenticated: { requestsPerSecond: 1e6, burst: 1e6 } },
        },
        dataDir: join(dir, 'data2'),
        logger: createLogger('bench', { level: 'silent' }),
      });
      try {
        const u0 = performance.now();
        const put = await fetch(`${api2.url}/v1/sources/thesaurus/graph`, {
          method: 'PUT',
          headers: {
            'content-type': 'application/n-triples',
            authorization: `Bearer ${BENCH_KEY}`,
          },
          body: thesaurus,
        });
        const uploaded = (await put.json()) as { triples: number };
        if (!put.ok) throw new Error(`upload failed: ${JSON.stringify(uploaded)}`);
        const uploadSeconds = (performance.now() - u0) / 1000;
        console.log(
          `\n@dcg/sparql-subset thesaurus: ${uploaded.triples.toLocaleString('en')} triples uploaded over HTTP (PUT) in ${uploadSeconds.toFixed(2)} s (${Math.round(uploaded.triples / uploadSeconds).toLocaleString('en')} triples/s)`,
        );
        if (virtuoso) await virtuoso.load(thesaurusFile, GRAPH_THESAURUS);
        ratios.push(
          ...(await compareSparql(
            "@dcg/sparql-subset's benchmark queries on its thesaurus",
            api2.url,
            virtuoso,
            GRAPH_THESAURUS,
            benchmarkQueries(concepts),
          )),
        );
      } finally {
        await api2.close();
      }
    }
    if (ratios.length > 0) {
      const geo = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
      sparqlSpeedup = Number(geo.toFixed(2));
      console.log(
        `\ngeometric mean over ${ratios.length} queries: kg-api is ${geo.toFixed(2)}× as fast as Virtuoso over HTTP`,
      );
    }
  } finally {
    await virtuoso?.stop();
  }
  console.log(
    `\nsummary ${JSON.stringify({
      concepts,
      triples: vocabulary.triples,
      ingestTriplesPerSecond: Math.round(totalRate),
      ingestTriplesPerCpuSecond: Math.round(info.triples / ingestCpuSeconds),
      parseTriplesPerSecond: Math.round(parseRate),
      heapMiB: mib(memory.heapUsed - heapBefore),
      searchP50Ms: Number(p50.toFixed(3)),
      searchP99Ms: Number(p99.toFixed(3)),
      searchCpuP50Ms: Number(percentile(cpuTimes, 50).toFixed(3)),
      searchCpuP99Ms: Number(percentile(cpuTimes, 99).toFixed(3)),
      sparqlSpeedupOverVirtuoso: sparqlSpeedup,
    })}`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

interface BenchQuery {
  name: string;
  text: string;
}

async function runQuery(endpoint: string, query: string, extra: Record<string, string> = {}) {
  const s = performance.now();
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query, ...extra }),
  });
  const body = (await response.json()) as { results?: { bindings: unknown[] }; boolean?: boolean };
  if (!response.ok) throw new Error(`${endpoint}: ${response.status} ${JSON.stringify(body)}`);
  return {
    ms: performance.now() - s,
    rows: body.results?.bindings.length ?? (body.boolean ? 1 : 0),
  };
}

/** Times each query on kg-api and Virtuoso (same form POST), prints a table, returns the ratios. */
async function compareSparql(
  title: string,
  apiUrl: string,
  virtuoso: { sparqlUrl: string } | undefined,
  graph: string,
  queries: BenchQuery[],
): Promise<number[]> {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ours = `${apiUrl}/v1/graph/sparql`;
  const theirs = (q: string) => runQuery(virtuoso!.sparqlUrl, q, { 'default-graph-uri': graph });
  console.log(
    `\n## SPARQL over HTTP: ${title} (form POST, median of ${sparqlRuns} runs after warm-up)`,
  );
  console.log('| query | rows | kg-api | Virtuoso | Virtuoso / kg-api |');
  console.log('|---|---:|---:|---:|---:|');
  const ratios: number[] = [];
  for (const { name, text } of queries) {
    const a: number[] = [];
    const b: number[] = [];
    let rows = 0;
    let theirRows = 0;
    for (let i = 0; i < 3; i++) {
      await runQuery(ours, text);
      if (virtuoso) await theirs(text);
    }
    for (let i = 0; i < sparqlRuns; i++) {
      const mine = await runQuery(ours, text);
      a.push(mine.ms);
      rows = mine.rows;
      if (virtuoso) {
        const other = await theirs(text);
        b.push(other.ms);
        theirRows = other.rows;
      }
    }
    const mo = median(a);
    const mt = virtuoso ? median(b) : Number.NaN;
    if (virtuoso) ratios.push(mt / mo);
    const rowNote = virtuoso && theirRows !== rows ? ` (Virtuoso ${theirRows})` : '';
    console.log(
      `| ${name} | ${rows}${rowNote} | ${fmt(mo)} | ${virtuoso ? fmt(mt) : '–'} | ${virtuoso ? `${(mt / mo).toFixed(2)}×` : '–'} |`,
    );
  }
  return ratios;
}

interface SparqlSubsetBench {
  benchmarkQueries(n: number): BenchQuery[];
  generateThesaurus(n: number): unknown[];
  toNTriples(quads: unknown[]): string;
}

async function loadSparqlSubsetBench(): Promise<SparqlSubsetBench | undefined> {
  const base = new URL('../../../packages/sparql-subset/bench/', import.meta.url);
  try {
    const queries = (await import(new URL('queries.ts', base).href)) as Partial<SparqlSubsetBench>;
    const data = (await import(new URL('thesaurus.ts', base).href)) as Partial<SparqlSubsetBench>;
    if (!queries.benchmarkQueries || !data.generateThesaurus || !data.toNTriples) return undefined;
    return {
      benchmarkQueries: queries.benchmarkQueries,
      generateThesaurus: data.generateThesaurus,
      toNTriples: data.toNTriples,
    };
  } catch {
    return undefined;
  }
}
