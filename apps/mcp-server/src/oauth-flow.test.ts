import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { loginAndApprove, MemoryOAuthClient } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

describe('mcp-server: the SDK client drives the whole OAuth flow, then calls every tool', () => {
  let backends: Backends;
  let server: RunningMcpServer;
  let dir: string;

  beforeAll(async () => {
    backends = await startBackends();
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-'));
    server = await startMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
        knowledgeGraph: { baseUrl: backends.kg.url },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await backends?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (oauth: MemoryOAuthClient) => {
    const client = new Client(
      { name: 'oauth-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      authProvider: oauth,
    });
    return { client, transport };
  };

  it('discovery, dynamic registration, login, consent, token, tools/list and tools/call', async () => {
    const oauth = new MemoryOAuthClient({ redirectUrl: 'http://127.0.0.1:33418/callback' });
    const first = await connect(oauth);
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.information?.client_id).toEqual(expect.any(String));
    expect(oauth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(server.mcpUrl);
    const callback = await loginAndApprove(
      oauth.authorizationUrl!,
      server.url,
      server.demoUser!.username,
      server.demoUser!.password,
      oauth.redirectUrl,
    );
    expect(callback.searchParams.get('iss')).toBe(new URL(server.url).origin);
    await first.transport.finishAuth(callback.searchParams);
    expect(oauth.stored?.refresh_token).toEqual(expect.any(String));
    expect(oauth.stored?.access_token).toEqual(expect.any(String));

    const { client, transport } = await connect(oauth);
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(9);
    const args: Record<string, Record<string, unknown>> = {
      search_marketplace: { query: 'invoices' },
      get_system: { systemId: DEMO.systemId },
      get_component: { componentId: DEMO.contracts.violated },
      get_contract_compliance: { contractId: DEMO.contracts.violated },
      list_policies: { resourceType: 'dataproduct' },
      search_knowledge_graph: { term: 'data' },
      describe_concepts: { iris: [DEMO.concept] },
      sparql_query: { query: `ASK { <${DEMO.concept}> ?p ?o }` },
      sparql_passthrough: { source: 'upstream', query: `ASK { <${DEMO.concept}> ?p ?o }` },
    };
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(args).sort());
    for (const tool of tools) {
      const result = (await client.callTool({ name: tool.name, arguments: args[tool.name] })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content: unknown[];
      };
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.structuredContent).toBeDefined();
    }
    const answer = (await client.callTool({
      name: 'get_contract_compliance',
      arguments: { contractId: DEMO.contracts.violated },
    })) as { structuredContent: { status: string } };
    expect(answer.structuredContent.status).toBe('violated');
    await client.close();
  });
});
