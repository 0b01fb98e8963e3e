import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from './__fixtures__/backends.testkit';
import {
  type DemoMcpServer,
  demoMcpServer,
  demoToolArguments,
} from './__fixtures__/demo-server.testkit';
import type { InProcessMcpServer } from './__fixtures__/in-process.testkit';
import { loginAndApprove, MemoryOAuthClient } from './__fixtures__/oauth-client.testkit';

describe('mcp-server: the SDK client drives the whole OAuth flow, then calls every tool', () => {
  let demo: DemoMcpServer;
  let server: InProcessMcpServer;

  beforeAll(async () => {
    demo = await demoMcpServer('mcp-server-');
    server = demo.server;
  });
  afterAll(() => demo?.close());

  const connect = async (oauth: MemoryOAuthClient) => {
    const client = new Client(
      { name: 'oauth-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      authProvider: oauth,
      fetch: server.fetch,
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
      server,
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
    const args = demoToolArguments('invoices');
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
