// Benchmark of mcp-server: tools/call latency (p50, p99) of each tool with a valid token, beside a
// trivial tool on the same server in the same run (the ratio shows what the backends add); the
// cost of verifying a token; the token endpoint's throughput (refresh grants); tool calls/s with
// LOAD_CLIENTS concurrent clients (50) for LOAD_SECONDS (10), and /health's latency meanwhile.
// Run: pnpm --filter @dcg/mcp-server bench   (ROUNDS=200 by default)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { DEMO, GOVERNANCE_KEY, startBackends } from '../src/__fixtures__/backends.testkit';
import { authorize } from '../src/__fixtures__/oauth-client.testkit';
import { startMcpServer } from '../src/server';

const rounds = Number(process.env.ROUNDS ?? 200);
const logger = createLogger('bench', { level: 'silent' });
const backends = await startBackends();
const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
const server = await startMcpServer({
  dataDir: dir,
  demo: true,
  config: {
    governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
    knowledgeGraph: { baseUrl: backends.kg.url },
    // The code is measured, not the limits (one user, one address, thousands of calls).
    rateLimit: { enabled: false },
  },
  logger,
  extendServer: (mcp) =>
    mcp.registerTool(
      'trivial',
      {
        description: 'Answers its input (benchmark baseline)',
        inputSchema: z.object({ n: z.number() }),
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
    ['search_marketplace', { query: 'orders' }],
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
  console.log(`tools/call over HTTP with a token, ${rounds} calls each (ms):`);
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
  // Throughput: concurrent clients calling search_marketplace (each its own connection and
  // session-less client), and /health probed meanwhile.
  const loadClients = Number(process.env.LOAD_CLIENTS ?? 50);
  const loadSeconds = Number(process.env.LOAD_SECONDS ?? 10);
  const clients = await Promise.all(
    Array.from({ length: loadClients }, async () => {
      const c = new Client(
        { name: 'bench-load', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await c.connect(
        new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
          requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
        }),
      );
      return c;
    }),
  );
  const loadEnd = performance.now() + loadSeconds * 1000;
  const callTimes: number[] = [];
  const healthTimes: number[] = [];
  const probe = (async () => {
    while (performance.now() < loadEnd) {
      const start = performance.now();
      await (await fetch(`${server.url}/health`)).text();
      healthTimes.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < loadEnd) {
        const start = performance.now();
        const result = await c.callTool({
          name: 'search_marketplace',
          arguments: { query: 'orders' },
        });
        if (result.isError)
          throw new Error(`search_marketplace: ${JSON.stringify(result.content)}`);
        callTimes.push(performance.now() - start);
      }
    }),
  );
  await probe;
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length * q)] ?? Number.NaN;
  console.log(
    `load: ${loadClients} clients, ${loadSeconds} s: ${(callTimes.length / loadSeconds).toFixed(0)} search_marketplace calls/s, p50 ${quantile(callTimes, 0.5).toFixed(1)} ms, p99 ${quantile(callTimes, 0.99).toFixed(1)} ms; /health meanwhile p50 ${quantile(healthTimes, 0.5).toFixed(1)} ms, p99 ${quantile(healthTimes, 0.99).toFixed(1)} ms`,
  );
  for (const c of clients) await c.close();
  await client.close();
} finally {
  await server.close();
  await backends.close();
  rmSync(dir, { recursive: true, force: true });
}
