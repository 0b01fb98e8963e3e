import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DEMO } from './backends.testkit';
import { demoMcpServer } from './demo-server.testkit';
import { authorize } from './oauth-client.testkit';

/**
 * A real `/metrics` scrape of mcp-server (process metrics included) after a sign-in, a tool call
 * that answers, one that the input schema refuses, and a wrong refresh token, so that the tool and
 * OAuth families have samples.
 *
 * @example
 * const text = await mcpServerScrape();
 */
export async function mcpServerScrape(): Promise<string> {
  const demo = await demoMcpServer('mcp-server-scrape-', { rateLimit: { enabled: false } });
  try {
    const { server } = demo;
    const { oauth, accessToken } = await authorize(
      server.mcpUrl,
      server,
      server.demoUser!.username,
      server.demoUser!.password,
    );
    const client = new Client(
      { name: 'scrape', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
        fetch: server.fetch,
      }),
    );
    await client.callTool({ name: 'get_system', arguments: { systemId: DEMO.systemId } });
    await client.callTool({ name: 'get_system', arguments: { systemId: 42 } });
    await client.close();
    await server.fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'not-a-refresh-token',
        client_id: oauth.information!.client_id,
      }),
    });
    // From loopback outside production a scrape needs no key.
    const response = await server.fetch(`${server.url}/metrics`);
    if (response.status !== 200) throw new Error(`mcp-server /metrics answered ${response.status}`);
    return await response.text();
  } finally {
    await demo.close();
  }
}
