// Benchmark of mcp-server over a marketplace of INSTANCES (10,000) instances (plus the demo data):
// /health and a trivial tool side by side (the MCP overhead over /health, wall and CPU time per
// request), tools/call latency (p50, p99) of each tool with a valid token beside the trivial tool
// (the ratio shows what the backends add); the cost of verifying a token; the token endpoint's
// throughput (refresh grants).
// Goals (issues 20, 21): MCP overhead over /health < 3 ms p50; tools/call p50 < 10 ms.
// Everything runs in this one process (client, mcp-server, governance-api, kg-api): CPU ms per
// request counts all of them, and is steadier than wall time on a loaded machine. Throughput under
// 50 clients and the probes meanwhile need the servers and the clients in processes of their own:
// bench/probes-under-load.ts (`pnpm --filter @dcg/mcp-server bench:load`).
// Run: pnpm --filter @dcg/mcp-server bench   (ROUNDS=200, INSTANCES=10000, EMBED=50 by default)
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { jsonSchemaOnce } from '@dcg/mcp-tools';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { seedMarketplaceAtScale } from '../../governance-api/src/__fixtures__/marketplace-at-scale.testkit';
import { DEMO, GOVERNANCE_KEY, startBackends } from '../src/__fixtures__/backends.testkit';
import { authorize } from '../src/__fixtures__/oauth-client.testkit';
import { startMcpServer } from '../src/server';
import { captureToolsCall } from './capture-tools-call';

const rounds = Number(process.env.ROUNDS ?? 200);
// Made once, as the dcg tools' schemas are (the server is built per request).
const trivialInput = jsonSchemaOnce(z.object({ n: z.number() }));
const instances = Number(process.env.INSTANCES ?? 10_000);
const logger = createLogger('bench', { level: 'silent' });
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`;
console.log(`start: ${load()}`);
let queries: string[] = ['orders'];
const seeding = performance.now();
const backends = await startBackends({
  seedGovernance: async (dataDir) => {
    ({ queries } = await seedMarketplaceAtScale(dataDir, {
      count: instances,
      embed: Number(process.env.EMBED ?? 50),
    }));
  },
});
console.log(
  `governance-api with ${instances} generated instances and the demo data ready in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
);
const searchQuery = queries[0]!;
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ??
  Number.NaN;
/** The latencies of `first` and `second`, called alternately `rounds` times (the same load). */
const timeAlternately = async (first: () => Promise<void>, second: () => Promise<void>) => {
  const firstTimes: number[] = [];
  const secondTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let start = performance.now();
    await first();
    firstTimes.push(performance.now() - start);
    start = performance.now();
    await second();
    secondTimes.push(performance.now() - start);
  }
  return [firstTimes, secondTimes] as const;
};
/** CPU time of this process per call of `fn`, over `rounds` calls in a row, in ms. */
const cpuPerCall = async (fn: () => Promise<void>) => {
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / rounds;
};
const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
const server = await startMcpServer({
  dataDir: dir,
  demo: true,
  config: {
    // A loaded machine: a slow answer is measured, not turned into a tool error.
    governance: {
      baseUrl: backends.governance.url,
      apiKey: { key: GOVERNANCE_KEY },
      timeoutMs: 60_000,
    },
    knowledgeGraph: { baseUrl: backends.kg.url },
    // A run on a loaded machine outlasts the default token lifetime.
    oauth: { accessTokenTtlSeconds: 3_600 },
    // Every client of the bench comes from one address.
    server: { maxConnectionsPerClient: 0 },
    // The code is measured, not the limits (one user, one address, thousands of calls).
    rateLimit: { enabled: false },
  },
  logger,
  extendServer: (mcp) =>
    mcp.registerTool(
      'trivial',
      {
        description: 'Answers its input (benchmark baseline)',
        inputSchema: trivialInput,
      },
      async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }),
    ),
});

try {
  const { oauth, accessToken } = await authorize(
    server.mcpUrl,
    server.url,
    server.demoUser!.username,
    server.demoUser!.password,
  );
  const client = new Client(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  const calls: [string, Record<string, unknown>][] = [
    ['trivial', { n: 1 }],
    // In one environment, governance-api's search ranks; across all of them the client would list
    // every instance and rank them itself.
    ['search_marketplace', { query: searchQuery, environment: DEMO.environment }],
    ['get_system', { systemId: DEMO.systemId }],
    ['get_component', { componentId: DEMO.contracts.violated }],
    ['get_contract_compliance', { contractId: DEMO.contracts.violated, environment: 'production' }],
    ['list_policies', { resourceType: 'dataproduct' }],
    ['search_knowledge_graph', { term: 'data' }],
    ['describe_concepts', { iris: [DEMO.concept] }],
    [
      'sparql_query',
      {
        query:
          'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c ?l WHERE { ?c skos:prefLabel ?l } LIMIT 10',
      },
    ],
    [
      'sparql_passthrough',
      {
        source: 'upstream',
        query:
          'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?c ?l WHERE { ?c skos:prefLabel ?l } LIMIT 10',
      },
    ],
  ];
  for (const [name, args] of calls) {
    for (let i = 0; i < 20; i++) await client.callTool({ name, arguments: args }); // warm-up
  }
  // The MCP overhead: /health and the trivial tool, alternating (same load), then each alone for
  // its CPU time per request.
  const healthOnce = async () => {
    const response = await fetch(`${server.url}/health`);
    await response.text();
  };
  const trivialOnce = async () => {
    const result = await client.callTool({ name: 'trivial', arguments: { n: 1 } });
    if (result.isError) throw new Error('trivial failed');
  };
  const [healthTimes, trivialTimes] = await timeAlternately(healthOnce, trivialOnce);
  const healthCpu = await cpuPerCall(healthOnce);
  const trivialCpu = await cpuPerCall(trivialOnce);
  const healthP50 = quantile(healthTimes, 0.5);
  const trivialP50 = quantile(trivialTimes, 0.5);
  console.log(`MCP overhead, ${rounds} requests each (${load()}):`);
  console.log(
    `  /health p50 ${healthP50.toFixed(2)} ms (CPU ${healthCpu.toFixed(2)} ms/request); trivial tools/call p50 ${trivialP50.toFixed(2)} ms (CPU ${trivialCpu.toFixed(2)} ms/request)`,
  );
  console.log(
    `  overhead over /health: p50 ${(trivialP50 - healthP50).toFixed(2)} ms (goal: < 3 ms), CPU ${(trivialCpu - healthCpu).toFixed(2)} ms/request`,
  );

  // The same without the SDK client's own work: the trivial call's HTTP request, as the client
  // sent it, replayed with fetch like /health (what the server adds, and little else).
  const captured = await captureToolsCall(server.mcpUrl, accessToken, 'trivial', { n: 1 });
  const rawOnce = async () => {
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: captured.headers,
      body: captured.body,
    });
    const text = await response.text();
    if (response.status !== 200 || !text.includes('"result"'))
      throw new Error(`replayed tools/call answered ${response.status}: ${text.slice(0, 200)}`);
  };
  const [healthTimes2, rawTimes] = await timeAlternately(healthOnce, rawOnce);
  const rawCpu = await cpuPerCall(rawOnce);
  const health2P50 = quantile(healthTimes2, 0.5);
  const rawP50 = quantile(rawTimes, 0.5);
  console.log(
    `  with fetch as the client (the trivial call's request replayed): p50 ${rawP50.toFixed(2)} ms vs /health ${health2P50.toFixed(2)} ms: overhead p50 ${(rawP50 - health2P50).toFixed(2)} ms (goal: < 3 ms), CPU ${rawCpu.toFixed(2)} ms/request, ${(rawCpu - healthCpu).toFixed(2)} ms over /health`,
  );

  // Round-robin, so that every tool meets the same machine load (the trivial tool included).
  const times = new Map<string, number[]>(calls.map(([name]) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, args] of calls) {
      const start = performance.now();
      const result = await client.callTool({ name, arguments: args });
      times.get(name)!.push(performance.now() - start);
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    }
  }
  const results = calls.map(([name]) => {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    return {
      tool: name,
      p50: sorted[Math.floor(sorted.length * 0.5)]!,
      p99: sorted[Math.floor(sorted.length * 0.99)]!,
    };
  });
  const trivial = results[0]!.p50;
  console.log(
    `tools/call over HTTP with a token, ${rounds} calls each (ms; goal: p50 < 10 ms), ${load()}:`,
  );
  console.log('tool                      p50     p99   p50 / trivial');
  for (const r of results) {
    console.log(
      `${r.tool.padEnd(24)} ${r.p50.toFixed(2).padStart(6)} ${r.p99.toFixed(2).padStart(7)}   ${(r.p50 / trivial).toFixed(2)}x`,
    );
  }

  // Token verification alone: the JWT check and the (cached) grant lookup, in process.
  const { createTokenVerifier } = await import('../src/oauth/token-verifier');
  const { publicJwks } = await import('../src/oauth/authorization-server');
  const keys = (await server.store!.keys.read())!;
  const verifier = createTokenVerifier({
    issuer: new URL(server.url).origin,
    resource: server.mcpUrl,
    publicJwks: publicJwks(keys),
    store: server.store!,
  });
  for (let i = 0; i < 200; i++) await verifier.verifyAccessToken(accessToken);
  const verifyRounds = 2_000;
  const start = performance.now();
  for (let i = 0; i < verifyRounds; i++) await verifier.verifyAccessToken(accessToken);
  const verifyMs = (performance.now() - start) / verifyRounds;
  console.log(
    `token verification: ${(verifyMs * 1000).toFixed(1)} µs = ${((verifyMs / trivial) * 100).toFixed(1)}% of a trivial tools/call (goal: < 5%)`,
  );
  const compliance = results.find((r) => r.tool === 'get_contract_compliance')!;
  console.log(
    `get_contract_compliance p50 = ${(compliance.p50 / trivial).toFixed(2)}x trivial (goal: < 2x)`,
  );

  // Token endpoint: sequential refresh grants (each one rotates the refresh token).
  let refreshToken = oauth.stored!.refresh_token!;
  const clientId = oauth.information!.client_id;
  const seconds = Number(process.env.TOKEN_SECONDS ?? 3);
  const until = performance.now() + seconds * 1000;
  let grants = 0;
  while (performance.now() < until) {
    const response = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: clientId,
      }),
    });
    if (response.status !== 200)
      throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
    refreshToken = ((await response.json()) as { refresh_token: string }).refresh_token;
    grants += 1;
  }
  console.log(
    `token endpoint: ${(grants / seconds).toFixed(0)} refresh grants/s (one client, sequential)`,
  );
  await client.close();
} finally {
  await server.close();
  await backends.close();
  rmSync(dir, { recursive: true, force: true });
}
