import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieBrowser, formOf, MemoryOAuthClient } from './__fixtures__/oauth-client.testkit';
import { UPSTREAM_CALLBACK_PATH } from './oauth/upstream-oidc';
import { type RunningMcpServer, startMcpServer } from './server';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('sign-in at an upstream OpenID Connect provider (a real oidc-provider on loopback)', () => {
  let upstreamServer: Server;
  let upstreamUrl: string;
  let server: RunningMcpServer;
  let dir: string;

  beforeAll(async () => {
    const port = await freePort();
    const ourIssuer = `http://127.0.0.1:${port}`;
    upstreamServer = createServer();
    await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstreamServer.address() as AddressInfo).port}`;
    // The identity provider: its own development login (any user name), PKCE required.
    const upstream = new Provider(upstreamUrl, {
      clients: [
        {
          client_id: 'dcg-mcp',
          client_secret: 'upstream-secret-0123456789-0123456789',
          redirect_uris: [`${ourIssuer}${UPSTREAM_CALLBACK_PATH}`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email'], profile: ['preferred_username'] },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({ sub, email: `${sub}@example.org`, preferred_username: sub }),
      }),
      conformIdTokenClaims: false,
      pkce: { required: () => true },
    });
    upstreamServer.on('request', upstream.callback());
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-upstream-'));
    server = await startMcpServer({
      dataDir: dir,
      port,
      config: {
        oauth: {
          upstream: {
            issuer: upstreamUrl,
            clientId: 'dcg-mcp',
            clientSecret: { key: 'upstream-secret-0123456789-0123456789' },
          },
        },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => upstreamServer?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the person signs in at the provider, consents here, and the client gets a token for that account', async () => {
    const oauth = new MemoryOAuthClient({ redirectUrl: 'http://127.0.0.1:44000/callback' });
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client(
      { name: 'upstream', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      authProvider: oauth,
    });
    await client.connect(transport).catch(() => undefined);
    const browser = new CookieBrowser();
    // Our /authorize → our interaction → the provider's login page.
    let step = await browser.follow(oauth.authorizationUrl!, {}, oauth.redirectUrl);
    let html = await step.response!.text();
    const loginAction = /action="([^"]+)"/.exec(html)?.[1];
    expect(html).toMatch(/name="login"/);
    step = await browser.follow(
      new URL(loginAction!, upstreamUrl),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login: 'alice', password: 'any' }),
      },
      oauth.redirectUrl,
    );
    html = await step.response!.text();
    // The provider's consent for its own scopes.
    const consentAction = /action="([^"]+)"/.exec(html)?.[1];
    expect(html).toMatch(/name="prompt" value="consent"/);
    step = await browser.follow(
      new URL(consentAction!, upstreamUrl),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'consent' }),
      },
      oauth.redirectUrl,
    );
    // Back here: our consent page, for the account the provider named.
    html = await step.response!.text();
    expect(html, html).toMatch(/Allow access\?/);
    expect(html).toMatch(/as <strong>alice<\/strong>/);
    const form = formOf(html, 'confirm');
    const done = await browser.follow(
      new URL(form.action, server.url),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(server.url).origin,
        },
        body: new URLSearchParams({ csrf: form.csrf }),
      },
      oauth.redirectUrl,
    );
    expect(done.stoppedAt?.searchParams.get('code')).toEqual(expect.any(String));
    await transport.finishAuth(done.stoppedAt!.searchParams);
    expect(decodeJwt(oauth.stored!.access_token).sub).toBe('alice');
  });

  it('a callback with an unknown state is refused', async () => {
    const response = await fetch(`${server.url}${UPSTREAM_CALLBACK_PATH}?code=x&state=forged`);
    expect(response.status).toBe(400);
  });
});
