// Benchmark: one MCP `search_marketplace` call at 10,000 marketplace instances (half in
// production, half in development), with an environment and without one, p50 / p99 and the CPU
// time of the whole path per call (MCP server, marketplace client, governance-api: all in this
// process), beside a trivial tool on the same server in the same run.
// Run: pnpm --filter @dcg/mcp-server bench:search
//   BENCH_INSTANCES (10000), ROUNDS (30 calls of each kind), BENCH_EMBED (instances really
//   embedded by the local model, 200; the others reuse those vectors under their own text hashes,
//   so that governance-api starts with nothing pending and searches by meaning).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { startGovernanceApi } from '@dcg/governance-api';
import { createLogger } from '@dcg/http-kit';
import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { instanceDocument } from '@dcg/marketplace-search';
import { createLocalEmbedder } from '@dcg/marketplace-search/node';
import { generateMarketplace } from '@dcg/marketplace-search/testing';
import { createDcgMcpServer, DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from '@dcg/mcp-tools';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { storeSampleEmbeddings } from '../../governance-api/bench/sample-embeddings';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const EMBED = Number(process.env.BENCH_EMBED ?? 200);
const ENVIRONMENTS = ['production', 'development'];
const QUERIES = [
  'customer invoices',
  'money owed by clients',
  'parcel delivery status',
  'employee salaries',
  'stock levels in warehouses',
];

const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-search-'));
const dataDir = join(dir, 'data');
mkdirSync(dataDir, { recursive: true });
const logger = createLogger('bench', { level: 'warn' });
try {
  const instances = ENVIRONMENTS.flatMap((environment) =>
    generateMarketplace({ environment, count: Math.ceil(INSTANCES / ENVIRONMENTS.length) }),
  ).slice(0, INSTANCES);
  const docs = instances.map(instanceDocument);
  const embedder = createLocalEmbedder();
  const sample = await embedder.embed(docs.slice(0, EMBED).map((d) => d.embeddingText));
  await embedder.close?.();
  const gov = await openSqliteStore({ file: join(dataDir, 'governance.db') });
  for (const instance of instances) await gov.putInstance({ ...instance, planId: 'bench' });
  await gov.close();
  await storeSampleEmbeddings(dataDir, docs, sample);

  const api = await startGovernanceApi({
    dataDir,
    config: { rateLimit: { anonymous: { requestsPerSecond: 1_000_000, burst: 1_000_000 } } },
    logger,
  });
  const status = await api.marketplaceSearch.status();
  const handler = createMcpHandler(() => {
    const server = createDcgMcpServer({
      marketplace: createMarketplaceClient({ baseUrl: api.url, timeoutMs: 60_000 }),
      // Not called here: the marketplace tools are measured.
      kg: createKgClient({ baseUrl: 'http://127.0.0.1:9' }),
      limits: DEFAULT_LIMITS,
      cacheHints: DEFAULT_CACHE_HINTS,
    });
    server.registerTool(
      'trivial',
      { description: 'Answers its input', inputSchema: z.object({ n: z.number() }) },
      async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }),
    );
    return server;
  });
  const client = new Client(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://mcp.bench/mcp'), {
      fetch: (input, init) => handler.fetch(new Request(input, init)),
    }),
  );

  const kinds: [string, string, (q: string) => Record<string, unknown>][] = [
    ['trivial', 'trivial', () => ({ n: 1 })],
    [
      'search, environment production',
      'search_marketplace',
      (query) => ({ query, environment: 'production' }),
    ],
    ['search, all environments', 'search_marketplace', (query) => ({ query })],
  ];
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name: tool, arguments: args });
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
    return result;
  };
  // Warm-up: each query's vector is made once (and cached), as for any repeated query.
  for (const [, tool, args] of kinds) for (const q of QUERIES) await call(tool, args(q));
  const sample0 = await call('search_marketplace', { query: QUERIES[1] });
  const answer = sample0.structuredContent as { mode: string; hits: { name: string }[] };

  const times = new Map<string, { wall: number[]; cpu: number[] }>(
    kinds.map(([label]) => [label, { wall: [], cpu: [] }]),
  );
  // Round-robin, so that every kind meets the same machine load.
  for (let i = 0; i < ROUNDS; i++) {
    for (const [label, tool, args] of kinds) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await call(tool, args(QUERIES[i % QUERIES.length] as string));
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      times.get(label)?.wall.push(wall);
      times.get(label)?.cpu.push((used.user + used.system) / 1000);
    }
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
  };
  console.log(
    `${status.instances} instances in ${ENVIRONMENTS.length} environments (${status.embedded} embedded, ${status.pending} pending); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${ROUNDS} calls each`,
  );
  console.log(
    `"${QUERIES[1]}" without an environment: mode ${answer.mode}, first hits ${answer.hits
      .slice(0, 3)
      .map((h) => h.name)
      .join(', ')}`,
  );
  console.log('call                              p50 ms   p99 ms   CPU p50 ms');
  for (const [label] of kinds) {
    const t = times.get(label) as { wall: number[]; cpu: number[] };
    console.log(
      `${label.padEnd(32)} ${pct(t.wall, 0.5).toFixed(1).padStart(7)} ${pct(t.wall, 0.99)
        .toFixed(1)
        .padStart(8)} ${pct(t.cpu, 0.5).toFixed(1).padStart(11)}`,
    );
  }
  await client.close();
  await handler.close();
  await api.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
