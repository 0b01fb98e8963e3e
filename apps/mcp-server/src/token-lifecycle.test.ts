import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from './__fixtures__/backends.testkit';
import {
  type DemoMcpServer,
  demoMcpServer,
  demoToolArguments,
} from './__fixtures__/demo-server.testkit';
import type { InProcessMcpServer } from './__fixtures__/in-process.testkit';
import {
  authorize,
  CookieBrowser,
  formOf,
  pkce,
  postForm,
} from './__fixtures__/oauth-client.testkit';
import {
  authorizationUrl,
  basicAuth,
  registerClient,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
/** A JSON-RPC `tools/call` request. */
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('mcp-server tokens: refresh rotation, reuse detection, audience, expiry, revocation, scopes', () => {
  let demo: DemoMcpServer;
  let server: InProcessMcpServer;
  let dir: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    demo = await demoMcpServer('mcp-server-tokens-');
    ({ server, dir } = demo);
    user = server.demoUser!;
  });
  afterAll(() => demo?.close());

  /** A 2025-11-25 request (no _meta envelope): the legacy lane, one JSON-RPC call. */
  const mcp = (
    token: string | undefined,
    body: unknown = listTools,
    headers: Record<string, string> = {},
  ) =>
    server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const refresh = (refreshToken: string, clientId: string) =>
    tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });
  /** The OAuth flow as the demo user (registration, login, consent, code for tokens). */
  const signIn = () => authorize(server.mcpUrl, server, user.username, user.password);
  /** Signs a token with the server's own current key, to test what the verifier refuses. */
  const forge = async (claims: Record<string, unknown>, expiresIn = '5m') => {
    const keys = JSON.parse(readFileSync(join(dir, 'oauth-keys.json'), 'utf8'));
    const { 'dcg:createdAt': _created, ...jwk } = keys.jwks.keys[0];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid })
      .setIssuer(new URL(server.url).origin)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(await importJWK(jwk, 'ES256'));
  };

  it('401 without a token names the protected resource metadata', async () => {
    const response = await mcp(undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });

  it('a 2025-11-25 client (SDK 1.x) lists and calls every tool with a token', async () => {
    const { accessToken } = await signIn();
    const client = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    await client.connect(
      new LegacyTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
        fetch: server.fetch,
      }),
    );
    expect(client.getServerVersion()?.name).toBe('dcg-mcp-server');
    const { tools } = await client.listTools();
    const args = demoToolArguments('orders');
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(args).sort());
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: args[tool.name] });
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.structuredContent).toBeDefined();
    }
    await client.close();
  });

  it('a 2025-06-18 client gets its revision from initialize and calls a tool', async () => {
    const { accessToken } = await signIn();
    const read = async (response: Response) => {
      const text = await response.text();
      return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text));
    };
    const headers = { 'mcp-protocol-version': '2025-06-18' };
    const init = await mcp(
      accessToken,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      },
      headers,
    );
    expect(init.status).toBe(200);
    expect((await read(init)).result).toMatchObject({
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'dcg-mcp-server' },
    });
    const call = await mcp(
      accessToken,
      toolCall(2, 'get_contract_compliance', { contractId: DEMO.contracts.violated }),
      headers,
    );
    expect((await read(call)).result.structuredContent).toMatchObject({ status: 'violated' });
  });

  it('refresh tokens rotate, and reusing a used one revokes the whole family', async () => {
    const { oauth, accessToken, refreshToken } = await signIn();
    const clientId = oauth.information!.client_id;
    const first = await refresh(refreshToken!, clientId);
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(refreshToken);
    expect((await mcp(rotated.access_token)).status).toBe(200);
    // The used refresh token again: refused, and the family (grant) is gone.
    const reuse = await refresh(refreshToken!, clientId);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(rotated.refresh_token, clientId)).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the verifier's grant cache
    expect((await mcp(rotated.access_token)).status).toBe(401);
    expect((await mcp(accessToken)).status).toBe(401);
  });

  it('a client that asks for offline_access without prompt=consent sees it on the consent page and gets a refresh token', async () => {
    const redirect = 'http://127.0.0.1:40002/cb';
    const { client_id } = await registerClient(server, {
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const { verifier, challenge } = pkce();
    const browser = new CookieBrowser(server.fetch);
    // No prompt parameter at all, as OAuth 2.1 clients send it.
    const authorizeUrl = authorizationUrl(server.url, {
      clientId: client_id,
      redirectUri: redirect,
      scope: 'marketplace:read offline_access',
      resource: server.mcpUrl,
      challenge,
    });
    const loginPage = await (await browser.follow(authorizeUrl, {}, redirect)).response!.text();
    const login = formOf(loginPage, 'login');
    const post = (action: string, form: Record<string, string>) =>
      postForm(browser, server.url, action, form, redirect);
    const consent = await post(login.action, { csrf: login.csrf, ...user });
    const consentPage = await consent.response!.text();
    expect(consentPage).toContain('<code>offline_access</code>: Stay signed in (refresh tokens)');
    const confirm = formOf(consentPage, 'confirm');
    const back = await post(confirm.action, { csrf: confirm.csrf });
    const tokens = await tokenRequest(server, {
      grant_type: 'authorization_code',
      client_id,
      code: back.stoppedAt!.searchParams.get('code')!,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    const body = (await tokens.json()) as { refresh_token?: string };
    expect(body.refresh_token).toEqual(expect.any(String));
    expect((await refresh(body.refresh_token!, client_id)).status).toBe(200);
  });

  it('a registered confidential client authenticates with its secret, which is stored hashed', async () => {
    const { client_id, client_secret } = await registerClient(server, {
      redirect_uris: ['https://client.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const stored = await server.store!.adapter('Client').find(client_id!);
    expect(stored?.client_secret).toMatch(/^sha256\$/);
    expect(JSON.stringify(stored)).not.toContain(client_secret);
    const revoke = (secret: string) =>
      server.fetch(`${server.url}/revoke`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(client_id, secret),
        },
        body: new URLSearchParams({ token: 'not-a-token' }),
      });
    expect((await revoke(client_secret!)).status).toBe(200);
    const wrong = await revoke(`${client_secret}x`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('revoking a refresh token ends its grant: its access tokens are refused', async () => {
    const { oauth, accessToken, refreshToken } = await signIn();
    expect((await mcp(accessToken)).status).toBe(200);
    const revoked = await server.fetch(`${server.url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshToken!, client_id: oauth.information!.client_id }),
    });
    expect(revoked.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const refused = await mcp(accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  it('a token for another audience, an expired one and a forged one are refused', async () => {
    const { accessToken } = await signIn();
    const claims = decodeJwt(accessToken);
    expect(claims.aud).toBe(server.mcpUrl);
    const otherAudience = await forge({
      ...claims,
      aud: 'https://other.example/mcp',
      exp: undefined,
      iat: undefined,
    });
    expect((await mcp(otherAudience)).status).toBe(401);
    const expired = await forge({ ...claims, exp: undefined, iat: undefined }, '-1m');
    expect((await mcp(expired)).status).toBe(401);
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    expect((await mcp(tampered)).status).toBe(401);
    expect((await mcp(accessToken)).status).toBe(200);
  });

  it('the authorization server refuses another resource, with iss on the error response', async () => {
    const { client_id } = await registerClient(server, {
      redirect_uris: ['http://127.0.0.1:40000/cb'],
      application_type: 'native',
    });
    const response = await server.fetch(
      `${server.url}/authorize?${new URLSearchParams({
        client_id,
        response_type: 'code',
        // A native client's loopback redirect matches on any port.
        redirect_uri: 'http://127.0.0.1:40001/cb',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        resource: 'https://other.example/mcp',
        state: 'xyz',
      })}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe('http://127.0.0.1:40001');
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('iss')).toBe(new URL(server.url).origin);
  });

  it('403 insufficient_scope names the scope a tool needs', async () => {
    const { accessToken } = await signIn();
    const claims = decodeJwt(accessToken);
    const narrow = await forge({
      ...claims,
      scope: 'marketplace:read',
      exp: undefined,
      iat: undefined,
    });
    const allowed = await mcp(
      narrow,
      toolCall(2, 'get_contract_compliance', { contractId: DEMO.contracts.violated }),
    );
    expect(allowed.status).toBe(200);
    const refused = await mcp(
      narrow,
      toolCall(3, 'sparql_passthrough', { source: 'upstream', query: 'ASK {}' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(refused.headers.get('www-authenticate')).toMatch(/scope="kg:passthrough"/);
  });
});
