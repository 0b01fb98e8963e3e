import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import {
  authorize,
  CookieBrowser,
  formOf,
  MemoryOAuthClient,
  pkce,
} from './__fixtures__/oauth-client.testkit';
import {
  authorizationCode,
  register as registerAs,
  registerClient,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';

const INSPECTOR_REDIRECT = 'http://localhost:6274/oauth/callback';

describe('mcp-server authorization server: registration kinds, login page, codes', () => {
  let server: InProcessMcpServer;
  let dir: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-as-'));
    server = await inProcessMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        oauth: {
          clients: [
            {
              client_id: 'mcp-inspector',
              client_name: 'MCP Inspector',
              redirect_uris: [INSPECTOR_REDIRECT],
            },
          ],
        },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
    user = server.demoUser!;
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const register = (body: Record<string, unknown>) => registerAs(server, body);

  it('metadata: RFC 8414 with S256 only, iss on responses, metadata documents, registration', async () => {
    const metadata = await (
      await server.fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json();
    expect(metadata).toMatchObject({
      issuer: new URL(server.url).origin,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      registration_endpoint: `${new URL(server.url).origin}/register`,
      revocation_endpoint: `${new URL(server.url).origin}/revoke`,
      response_types_supported: ['code'],
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['marketplace:read', 'kg:read', 'kg:passthrough', 'offline_access']),
    );
    const resource = await (
      await server.fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(resource).toMatchObject({
      resource: server.mcpUrl,
      authorization_servers: [new URL(server.url).origin],
    });
  });

  it('a pre-registered client goes through without registering', async () => {
    const oauth = new MemoryOAuthClient({
      redirectUrl: INSPECTOR_REDIRECT,
      information: { client_id: 'mcp-inspector' },
    });
    const { accessToken } = await authorize(server.mcpUrl, server, user.username, user.password, {
      oauth,
    });
    expect(accessToken).toEqual(expect.any(String));
    const client = new Client(
      { name: 'inspector', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        authProvider: oauth,
        fetch: server.fetch,
      }),
    );
    expect((await client.listPrompts()).prompts.length).toBe(2);
    await client.close();
  });

  it('a client id metadata document on a private address is never fetched (SSRF guard)', async () => {
    const { challenge } = pkce();
    for (const clientId of [
      'https://127.0.0.1:9/client.json',
      'https://10.0.0.1/client.json',
      'http://example.com/client.json',
    ]) {
      const response = await server.fetch(
        `${server.url}/authorize?${new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          redirect_uri: 'https://example.com/cb',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })}`,
        { redirect: 'manual' },
      );
      expect(response.status, clientId).toBe(400);
      expect(await response.text()).toMatch(/invalid_client/);
    }
  });

  it('dynamic registration honours application_type: the http redirect of a native client must be loopback', async () => {
    expect(
      (
        await register({
          redirect_uris: ['http://127.0.0.1/cb'],
          application_type: 'native',
          token_endpoint_auth_method: 'none',
        })
      ).status,
    ).toBe(201);
    const native = await register({
      redirect_uris: ['http://example.com/cb'],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
    });
    expect(native.status).toBe(400);
    expect(await native.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('a wrong password is refused on the page; a form without its CSRF token or from another origin is refused', async () => {
    const oauth = new MemoryOAuthClient({
      redirectUrl: INSPECTOR_REDIRECT,
      information: { client_id: 'mcp-inspector' },
    });
    const client = new Client(
      { name: 'x', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client
      .connect(
        new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
          authProvider: oauth,
          fetch: server.fetch,
        }),
      )
      .catch(() => undefined);
    const browser = new CookieBrowser(server.fetch);
    const { response } = await browser.follow(oauth.authorizationUrl!);
    const html = await response!.text();
    expect(html).toMatch(/MCP Inspector/);
    const form = formOf(html, 'login');
    const post = (body: Record<string, string>, origin = server.url.replace(/\/$/, '')) =>
      browser.request(new URL(form.action, server.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(origin).origin,
        },
        body: new URLSearchParams(body),
      });
    const wrong = await post({
      csrf: form.csrf,
      username: user.username,
      password: 'not-the-password',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/Wrong user name or password/);
    const unknownUser = await post({
      csrf: form.csrf,
      username: 'nobody',
      password: user.password,
    });
    expect(unknownUser.status).toBe(401);
    const noCsrf = await post({ csrf: 'forged', username: user.username, password: user.password });
    expect(noCsrf.status).toBe(403);
    const crossSite = await post(
      { csrf: form.csrf, username: user.username, password: user.password },
      'https://evil.example',
    );
    expect(crossSite.status).toBe(403);
    // Without the interaction cookie (another browser), the form leads nowhere.
    const stranger = await server.fetch(new URL(form.action, server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: form.csrf,
        username: user.username,
        password: user.password,
      }),
      redirect: 'manual',
    });
    expect(stranger.status).toBe(400);
    const ok = await post({ csrf: form.csrf, username: user.username, password: user.password });
    expect(ok.status).toBe(303);
  });

  it('codes are single use: a replayed code is refused and revokes what the first exchange issued', async () => {
    const { client_id } = await registerClient(server, {
      redirect_uris: ['http://127.0.0.1:41000/cb'],
      application_type: 'native',
    });
    const { code, verifier, callback } = await authorizationCode(
      new CookieBrowser(server.fetch),
      server.url,
      {
        clientId: client_id,
        redirectUri: 'http://127.0.0.1:41000/cb',
        resource: server.mcpUrl,
        state: 's1',
        ...user,
      },
    );
    expect(callback.searchParams.get('iss')).toBe(new URL(server.url).origin);
    const exchange = () =>
      tokenRequest(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:41000/cb',
        code_verifier: verifier,
        client_id,
        resource: server.mcpUrl,
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as {
      access_token: string;
      scope: string;
      refresh_token?: string;
    };
    expect(tokens.scope).toBe('marketplace:read');
    expect(tokens.refresh_token).toBeUndefined(); // no offline_access asked, no refresh token
    const replay = await exchange();
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const refused = await server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(refused.status).toBe(401);
  });
});
