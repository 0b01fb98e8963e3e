import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningGovernanceApi, startGovernanceApi } from '@dcg/governance-api';
import { createLogger } from '@dcg/http-kit';
import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { heldOutMarketplace } from '@dcg/marketplace-search/testing';
import { createDcgMcpServer, DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from '@dcg/mcp-tools';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Hit = { systemId: string; name: string; environment: string; matchedBy: string[] };
type SearchAnswer = {
  isError?: boolean;
  structuredContent: { mode: string; hits: Hit[]; nextCursor?: string };
};

// The held-out marketplace (80 systems none of the search's own tests tune on) in production, its
// first 40 systems in development too, beside the demo system: governance-api with its default
// configuration (the local embedder), reached through the marketplace client by a real MCP client.
describe('search_marketplace over every environment, by meaning, through governance-api', () => {
  const GOVERNANCE_KEY = 'search-marketplace-test-reader-key';
  const dir = mkdtempSync(join(tmpdir(), 'mcp-search-'));
  let governanceApi: RunningGovernanceApi;
  let handler: McpHttpHandler;
  let client: Client;
  const search = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'search_marketplace', arguments: args })) as SearchAnswer;

  beforeAll(async () => {
    governanceApi = await startGovernanceApi({
      dataDir: join(dir, 'governance'),
      demo: true,
      config: {
        auth: {
          apiKeys: [{ name: 'mcp', key: GOVERNANCE_KEY, role: 'reader' }],
          developmentKey: false,
        },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
    const { governance, marketplaceSearch } = governanceApi;
    const deployed = [
      ...heldOutMarketplace('production'),
      ...heldOutMarketplace('development').slice(0, 40),
    ];
    for (const instance of deployed)
      await governance.store.putInstance({ ...instance, planId: 'search-marketplace-test' });
    // What another process's deploys go through: the search re-reads the instances.
    await marketplaceSearch.refresh();
    await marketplaceSearch.idle();
    handler = createMcpHandler(() =>
      createDcgMcpServer({
        marketplace: createMarketplaceClient({
          baseUrl: governanceApi.url,
          apiKey: GOVERNANCE_KEY,
        }),
        // search_marketplace never reads the knowledge graph: a closed loopback port stands in.
        kg: createKgClient({ baseUrl: 'http://127.0.0.1:9' }),
        limits: DEFAULT_LIMITS,
        cacheHints: DEFAULT_CACHE_HINTS,
      }),
    );
    client = new Client(
      { name: 'search-marketplace-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
        fetch: (input, init) => handler.fetch(new Request(input, init)),
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await handler?.close();
    await governanceApi?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds Accounts Receivable first for "money owed by clients" without an environment', async () => {
    const answer = await search({ query: 'money owed by clients' });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.mode).toBe('hybrid');
    const [first] = answer.structuredContent.hits;
    expect(first).toMatchObject({ name: 'Accounts Receivable' });
    expect(first?.matchedBy).toContain('meaning');
    // Both deployments of it, from both environments, lead the one ranking.
    expect(
      answer.structuredContent.hits
        .filter((hit) => hit.name === 'Accounts Receivable')
        .map((hit) => hit.environment)
        .sort(),
    ).toEqual(['development', 'production']);
  });

  it('filters by environment over the same ranking', async () => {
    const everywhere = await search({ query: 'money owed by clients', limit: 50 });
    const production = await search({
      query: 'money owed by clients',
      environment: 'production',
      limit: 50,
    });
    expect(production.structuredContent.hits[0]).toMatchObject({
      name: 'Accounts Receivable',
      environment: 'production',
    });
    expect(production.structuredContent.hits.map((h) => h.systemId)).toEqual(
      everywhere.structuredContent.hits
        .filter((h) => h.environment === 'production')
        .map((h) => h.systemId),
    );
  });

  it("pages with the server's nextOffset: no hit twice, the pages are the whole ranking", async () => {
    const whole = await search({ query: 'supplier bills and payments', limit: 50 });
    const paged: Hit[] = [];
    let cursor: string | undefined;
    do {
      const page = await search({
        query: 'supplier bills and payments',
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.isError).toBeFalsy();
      paged.push(...page.structuredContent.hits);
      cursor = page.structuredContent.nextCursor;
    } while (cursor && paged.length < 60);
    expect(paged.length).toBeGreaterThan(3);
    expect(paged.map((h) => `${h.environment} ${h.systemId}`)).toEqual(
      whole.structuredContent.hits.map((h) => `${h.environment} ${h.systemId}`),
    );
  });
});
