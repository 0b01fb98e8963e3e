// Figures for issue 9 (hostile load): kg-api in its own process (src/main.ts), then
//  1. 20 expensive SPARQL queries in flight: /health latency p50/p99/max while they run, and when
//     each query ended compared with sparql.timeoutMs;
//  2. /health latency while a 6 MB JSON-LD document is uploaded;
//  3. the server's peak resident memory (VmHWM).
// Run: pnpm --filter @dcg/kg-api bench:load   (KG_LOAD_QUERIES=20, KG_LOAD_TIMEOUT_MS=5000)

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelledConcepts, percentile, queryLoad } from '../src/__fixtures__/query-load';
import { spawnKgApi } from '../src/__fixtures__/spawn-app';

const QUERIES = Number(process.env.KG_LOAD_QUERIES ?? 20);
const TIMEOUT_MS = Number(process.env.KG_LOAD_TIMEOUT_MS ?? 5_000);
const KEY = 'bench-writer-key-0123456789';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';

const round = (n: number) => Math.round(n * 10) / 10;

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function healthDuring(url: string, task: Promise<unknown>): Promise<number[]> {
  let done = false;
  void task.finally(() => {
    done = true;
  });
  const ms: number[] = [];
  while (!done) {
    const started = performance.now();
    await (await fetch(`${url}/health`)).arrayBuffer();
    ms.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return ms;
}

const dir = await mkdtemp(join(tmpdir(), 'kg-bench-load-'));
const config = join(dir, 'config.json');
await writeFile(
  config,
  JSON.stringify({
    sources: [
      {
        id: 'vocab',
        name: 'vocab',
        modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
      },
      {
        id: 'jsonld',
        name: 'jsonld',
        modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
      },
    ],
    auth: { apiKeys: [{ name: 'bench', key: KEY }] },
    sparql: { timeoutMs: TIMEOUT_MS },
  }),
);
const api = await spawnKgApi({
  DCG_CONFIG: config,
  DCG_DATA_DIR: join(dir, 'data'),
  LOG_LEVEL: 'warn',
});
const pid = api.child.pid as number;
try {
  const put = await fetch(`${api.url}/v1/sources/vocab/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'application/n-triples', authorization: `Bearer ${KEY}` },
    body: labelledConcepts(2_000),
  });
  if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);

  // 1. Expensive queries in flight.
  const started = performance.now();
  const load = await queryLoad(api.url, QUERIES);
  const outcomes: Record<string, number> = {};
  for (const q of load.queries) {
    const key = `${q.status} ${q.type ?? ''}`.trim();
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const queryMs = load.queries.map((q) => q.ms);
  const queries = {
    inFlight: QUERIES,
    timeoutMs: TIMEOUT_MS,
    outcomes,
    endedMs: summary(queryMs),
    serverMs: summary(load.queries.map((q) => q.serverMs)),
    endedAfterTimeoutPlus1s: queryMs.filter((ms) => ms > TIMEOUT_MS + 1_000).length,
    health: summary(load.health.map((h) => h.ms)),
    healthNot200: load.health.filter((h) => h.status !== 200).length,
    wallMs: Math.round(performance.now() - started),
  };
  console.log(`queries: ${JSON.stringify(queries)}`);

  // 2. A 6 MB JSON-LD upload.
  const nodes = Array.from({ length: 28_000 }, (_, i) => ({
    '@id': `https://ex.org/j${i}`,
    [`${SKOS}prefLabel`]: { '@value': `JSON-LD concept number ${i}`, '@language': 'en' },
    [`${SKOS}broader`]: { '@id': `https://ex.org/j${i >> 1}` },
  }));
  const document = JSON.stringify({ '@graph': nodes });
  const uploadStarted = performance.now();
  const upload = fetch(`${api.url}/v1/sources/jsonld/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${KEY}` },
    body: document,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { triples?: number } }));
  const health = await healthDuring(api.url, upload);
  const uploaded = await upload;
  const jsonLd = {
    bytes: document.length,
    status: uploaded.status,
    triples: uploaded.body.triples,
    uploadMs: Math.round(performance.now() - uploadStarted),
    health: summary(health),
  };
  console.log(`json-ld upload: ${JSON.stringify(jsonLd)}`);

  const result = { queries, jsonLd, serverPeakRssMb: peakRssMb(pid), node: process.version };
  console.log(JSON.stringify(result));
} finally {
  api.child.kill('SIGTERM');
  await api.exited();
  await rm(dir, { recursive: true, force: true });
}
