// Where the time of a SPARQL request to kg-api goes, by result size: evaluation in-process (same
// data, same engine), JSON.stringify of the SPARQL JSON results, the server's own request time (its
// request log: routing, evaluation, serialisation), and the whole round trip, read by a bare
// node:http client (bytes only) and by fetch + text() (what most clients do).
//   node --conditions=@dcg/source --import tsx --expose-gc bench/http-overhead.ts
//   HTTP_BENCH_CONCEPTS=20000 … (default 20,000 concepts: two labels each)
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { evaluate, parseQuery } from '@dcg/sparql-subset';
import { Parser, Store } from 'n3';
import { startKgApi } from '../src/server';

const concepts = Number(process.env.HTTP_BENCH_CONCEPTS ?? 20_000);
const KEY = 'bench-writer-key-0123456789';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const lines: string[] = [];
for (let i = 0; i < concepts; i++) {
  const c = `<https://bench.example.org/c${i}>`;
  lines.push(
    `${c} <${SKOS}prefLabel> "concept ${i}"@en .`,
    `${c} <${SKOS}prefLabel> "Begriff ${i}"@de .`,
  );
}
const ntriples = lines.join('\n');
const store = new Store(new Parser({ format: 'N-Triples' }).parse(ntriples));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));

const dir = await mkdtemp(join(tmpdir(), 'kg-http-bench-'));
const source = {
  id: 'bench',
  name: 'bench',
  modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
};
let serverMs = 0;
const logger = createLogger('bench', {
  level: 'info',
  write: (line) => {
    const record = JSON.parse(line) as { msg?: string; path?: string; durationMs?: number };
    if (record.msg === 'request' && record.path === '/v1/graph/sparql')
      serverMs = record.durationMs ?? 0;
  },
});

/** POSTs the query with node:http and counts the bytes of the answer (no decoding). */
function rawPost(url: string, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/sparql-query' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const api = await startKgApi({
  config: {
    sources: [source],
    sparql: { timeoutMs: 60_000, maxRows: 1_000_000 },
    auth: { apiKeys: [{ name: 'bench', key: KEY }] },
    // The limiter runs (its cost is measured) but never refuses: the bench is one client.
    rateLimit: {
      anonymous: { requestsPerSecond: 1e6, burst: 1e6 },
      authenticated: { requestsPerSecond: 1e6, burst: 1e6 },
    },
  },
  dataDir: join(dir, 'data'),
  logger,
});
try {
  const put = await fetch(`${api.url}/v1/sources/bench/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${KEY}` },
    body: ntriples,
  });
  if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
  console.log(`${store.size} triples; median of 15 runs each`);
  console.log(
    '| rows | evaluate ms | JSON.stringify ms | server request ms | node:http round trip ms | fetch + text() ms | response KiB |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const limit of [10, 1_000, 10_000, 2 * concepts]) {
    const text = `PREFIX skos: <${SKOS}> SELECT ?c ?label { ?c skos:prefLabel ?label } LIMIT ${limit}`;
    const parsed = parseQuery(text);
    if (!parsed.success) throw new Error('parse');
    const evalMs: number[] = [];
    const jsonMs: number[] = [];
    const httpMs: number[] = [];
    const rawMs: number[] = [];
    const handlerMs: number[] = [];
    let bytes = 0;
    for (let run = 0; run < 18; run++) {
      const t0 = performance.now();
      const results = await evaluate(parsed.query, [store]);
      const t1 = performance.now();
      const body = JSON.stringify(results);
      const t2 = performance.now();
      const response = await fetch(`${api.url}/v1/graph/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: text,
      });
      const received = await response.text();
      const t3 = performance.now();
      if (!response.ok) throw new Error(received);
      const t4 = performance.now();
      await rawPost(`${api.url}/v1/graph/sparql`, text);
      const t5 = performance.now();
      bytes = received.length;
      if (received.length !== body.length) throw new Error('different answers');
      if (run < 3) continue; // warm-up
      evalMs.push(t1 - t0);
      jsonMs.push(t2 - t1);
      httpMs.push(t3 - t2);
      rawMs.push(t5 - t4);
      handlerMs.push(serverMs);
    }
    console.log(
      `| ${limit} | ${fmt(median(evalMs))} | ${fmt(median(jsonMs))} | ${fmt(median(handlerMs))} | ${fmt(median(rawMs))} | ${fmt(median(httpMs))} | ${(bytes / 1024).toFixed(0)} |`,
    );
  }
} finally {
  await api.close();
  await rm(dir, { recursive: true, force: true });
}
