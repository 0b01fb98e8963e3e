import { parsePrometheusText } from '@dcg/http-kit/testkit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from './__fixtures__/backends.testkit';
import { type DemoMcpServer, demoMcpServer } from './__fixtures__/demo-server.testkit';
import { authorize } from './__fixtures__/oauth-client.testkit';
import { basicAuth, registerClient, tokenRequest } from './__fixtures__/oauth-steps.testkit';

// Issue 25 §1: per-tool metrics and the OAuth failures operators ask about, read over HTTP from
// /metrics after real tool calls, a refresh token reuse and wrong passwords.

describe('mcp-server metrics of tools and OAuth', () => {
  let demo: DemoMcpServer;
  beforeAll(async () => {
    demo = await demoMcpServer('mcp-server-metrics-', { rateLimit: { enabled: false } });
  });
  afterAll(() => demo?.close());

  /** The samples of one scrape (from loopback outside production: no key needed). */
  const scrape = async () => {
    const response = await demo.server.fetch(`${demo.server.url}/metrics`);
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  };
  const sampleValue = (
    samples: Awaited<ReturnType<typeof scrape>>['samples'],
    name: string,
    labels: Record<string, string>,
  ) =>
    samples.find(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value;

  it('counts tool calls by outcome, errors by code, and times them per tool', async () => {
    const { server } = demo;
    const { accessToken } = await authorize(
      server.mcpUrl,
      server,
      server.demoUser!.username,
      server.demoUser!.password,
    );
    const client = new Client(
      { name: 'metrics-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        fetch: server.fetch,
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    try {
      for (let i = 0; i < 3; i++) {
        const ok = await client.callTool({
          name: 'get_system',
          arguments: { systemId: DEMO.systemId },
        });
        expect(ok.isError).toBeFalsy();
      }
      // A system that is not deployed: a tool error the assistant reads (code invalid_input).
      const missing = await client.callTool({
        name: 'get_system',
        arguments: { systemId: 'urn:dmb:dp:finance:nowhere:0' },
      });
      expect(missing.isError).toBe(true);
      const refused = await client.callTool({ name: 'get_system', arguments: { systemId: 42 } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }

    const { samples, types } = await scrape();
    expect(types.get('mcp_tool_calls_total')).toBe('counter');
    expect(types.get('mcp_tool_errors_total')).toBe('counter');
    expect(types.get('mcp_tool_call_duration_seconds')).toBe('histogram');
    const calls = (outcome: string) =>
      sampleValue(samples, 'mcp_tool_calls_total', { tool: 'get_system', outcome });
    expect(calls('ok')).toBe(3);
    expect(calls('tool_error')).toBe(1);
    expect(calls('invalid_params')).toBe(1);
    expect(
      sampleValue(samples, 'mcp_tool_errors_total', { tool: 'get_system', code: 'invalid_input' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'mcp_tool_errors_total', { tool: 'get_system', code: 'invalid_params' }),
    ).toBe(1);
    // The handler ran four times (the refused arguments never reached it).
    expect(
      sampleValue(samples, 'mcp_tool_call_duration_seconds_count', { tool: 'get_system' }),
    ).toBe(4);
    expect(
      sampleValue(samples, 'mcp_tool_call_duration_seconds_bucket', {
        tool: 'get_system',
        le: '+Inf',
      }),
    ).toBe(4);
  });

  it('counts a refresh token reuse, the invalid_grant it answers, failed sign-ins and a wrong client secret', async () => {
    const { server } = demo;
    const { oauth, refreshToken } = await authorize(
      server.mcpUrl,
      server,
      server.demoUser!.username,
      server.demoUser!.password,
    );
    const refresh = () =>
      tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken!,
        client_id: oauth.information!.client_id,
      });
    expect((await refresh()).status).toBe(200);
    const reused = await refresh();
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });

    // A wrong password: the login page answers again, never coming back to the client.
    const second = await authorize(server.mcpUrl, server, 'nobody', 'wrong-password').catch(
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(Error);

    // A wrong client secret at /token: oidc-provider's invalid_client, counted with the OAuth errors.
    const { client_id } = await registerClient(server, {
      redirect_uris: ['https://client.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const wrongSecret = await tokenRequest(
      server,
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: basicAuth(client_id, 'wrong-secret') },
    );
    expect(wrongSecret.status).toBe(401);

    const { samples } = await scrape();
    expect(
      sampleValue(samples, 'mcp_oauth_reuse_detected_total', { credential: 'refresh_token' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'mcp_oauth_errors_total', { endpoint: 'grant', code: 'invalid_grant' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(samples, 'mcp_oauth_errors_total', { endpoint: 'grant', code: 'invalid_client' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'mcp_oauth_logins_total', { outcome: 'wrong_credentials' }),
    ).toBeGreaterThanOrEqual(1);
    // One series per failure: no second counter of the same sign-ins and client secrets.
    expect(samples.some((s) => s.name === 'mcp_oauth_authentication_failures_total')).toBe(false);
  });
});
