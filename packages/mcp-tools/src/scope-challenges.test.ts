import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { type AuthInfo, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { createDcgMcpServer } from './create-dcg-mcp-server';
import { DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from './dcg-mcp-deps';
import { dataContractResourceUri, systemResourceUri } from './resource-list';
import { SCOPES } from './scopes';

const ALL = Object.values(SCOPES);
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'scopes', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Every operation of the server that reads data, with the scopes it must be refused without. */
const OPERATIONS: {
  label: string;
  method: string;
  params: Record<string, unknown>;
  needs: string[];
}[] = [
  ...Object.entries({
    search_marketplace: { query: 'orders' },
    get_system: { systemId: DEMO.systemId },
    get_component: { componentId: DEMO.contracts.violated },
    get_contract_compliance: { contractId: DEMO.contracts.violated },
    list_policies: { resourceType: 'dataproduct' },
  }).map(([name, args]) => ({
    label: `tools/call ${name}`,
    method: 'tools/call',
    params: { name, arguments: args },
    needs: [SCOPES.marketplaceRead],
  })),
  ...Object.entries({
    search_knowledge_graph: { term: 'data' },
    describe_concepts: { iris: [DEMO.concept] },
    sparql_query: { query: 'ASK {}' },
  }).map(([name, args]) => ({
    label: `tools/call ${name}`,
    method: 'tools/call',
    params: { name, arguments: args },
    needs: [SCOPES.knowledgeGraphRead],
  })),
  {
    label: 'tools/call sparql_passthrough',
    method: 'tools/call',
    params: { name: 'sparql_passthrough', arguments: { source: 'upstream', query: 'ASK {}' } },
    needs: [SCOPES.knowledgeGraphPassthrough],
  },
  {
    label: 'resources/list',
    method: 'resources/list',
    params: {},
    needs: [SCOPES.marketplaceRead],
  },
  {
    label: 'resources/templates/list',
    method: 'resources/templates/list',
    params: {},
    needs: [SCOPES.marketplaceRead],
  },
  {
    label: 'resources/read system',
    method: 'resources/read',
    params: { uri: systemResourceUri(DEMO.environment, DEMO.systemId) },
    needs: [SCOPES.marketplaceRead],
  },
  {
    label: 'resources/read data contract',
    method: 'resources/read',
    params: { uri: dataContractResourceUri(DEMO.environment, DEMO.contracts.violated) },
    needs: [SCOPES.marketplaceRead],
  },
  {
    label: 'prompts/get explain_contract_violation',
    method: 'prompts/get',
    params: {
      name: 'explain_contract_violation',
      arguments: { contractId: DEMO.contracts.violated },
    },
    needs: [SCOPES.marketplaceRead],
  },
  {
    label: 'prompts/get find_data',
    method: 'prompts/get',
    params: { name: 'find_data', arguments: { need: 'invoices' } },
    needs: [SCOPES.marketplaceRead, SCOPES.knowledgeGraphRead],
  },
];

describe('every tool, resource list, read and template, and prompt states its scope', () => {
  let backends: Backends;
  let handler: McpHttpHandler;

  beforeAll(async () => {
    backends = await startBackends();
    const deps = {
      marketplace: createMarketplaceClient({
        baseUrl: backends.governance.url,
        apiKey: GOVERNANCE_KEY,
      }),
      kg: createKgClient({ baseUrl: backends.kg.url }),
      limits: DEFAULT_LIMITS,
      cacheHints: DEFAULT_CACHE_HINTS,
    };
    handler = createMcpHandler(() => createDcgMcpServer(deps));
  });
  afterAll(async () => {
    await handler?.close();
    await backends?.close();
  });

  /** One 2026-07-28 request with a token of `scopes`, as the app's bearer gate passes it on. */
  const ask = (method: string, params: Record<string, unknown>, scopes: string[]) => {
    const authInfo: AuthInfo = {
      token: 'verified-by-the-gate',
      clientId: 'scopes-test',
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
      resource: new URL('http://mcp.test/mcp'),
    };
    const name = (params.name ?? params.uri) as string | undefined;
    return handler.fetch(
      new Request('http://mcp.test/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: envelope },
        }),
      }),
      { authInfo },
    );
  };

  it.each(OPERATIONS)(
    '$label: refused with a scope challenge without $needs, answered with it',
    async ({ method, params, needs }) => {
      for (const missing of needs) {
        const refused = await ask(
          method,
          params,
          ALL.filter((s) => s !== missing),
        );
        expect(refused.status, `${method} without ${missing}`).toBe(403);
        const challenge = refused.headers.get('www-authenticate') ?? '';
        expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
        expect(challenge).toContain(`scope="${needs.join(' ')}"`);
      }
      const answered = await ask(method, params, needs);
      expect(answered.status).toBe(200);
      const text = await answered.text();
      expect(text).not.toMatch(/"error":\{/);
    },
  );

  it('initialize declares no listChanged: no list changes while a server runs', async () => {
    const response = await handler.fetch(
      new Request('http://mcp.test/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'caps', version: '1' },
          },
        }),
      }),
    );
    const text = await response.text();
    const json = JSON.parse(
      text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text),
    );
    const capabilities = json.result.capabilities as Record<string, { listChanged?: boolean }>;
    for (const kind of ['tools', 'resources', 'prompts']) {
      expect(capabilities[kind], kind).toBeDefined();
      expect(capabilities[kind]?.listChanged ?? false, kind).toBe(false);
    }
  });
});
