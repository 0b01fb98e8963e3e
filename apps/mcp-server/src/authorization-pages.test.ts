import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { CookieBrowser, formOf, pkce } from './__fixtures__/oauth-client.testkit';
import {
  authorizationUrl,
  basicAuth,
  register as registerAs,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';

const logger = createLogger('test', { level: 'silent' });
const dirs: string[] = [];
const servers: InProcessMcpServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(config: Parameters<typeof inProcessMcpServer>[0]['config'] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pages-'));
  dirs.push(dir);
  const server = await inProcessMcpServer({ dataDir: dir, demo: true, config, logger });
  servers.push(server);
  return server;
}

const register = (server: InProcessMcpServer, body: Record<string, unknown>) =>
  registerAs(server, { token_endpoint_auth_method: 'none', ...body });

/** Opens /authorize for a client in a cookie browser: the login page and the browser. */
async function openLogin(server: InProcessMcpServer, clientId: string, redirectUri: string) {
  const browser = new CookieBrowser(server.fetch);
  const url = authorizationUrl(server.url, { clientId, redirectUri, challenge: pkce().challenge });
  const { response } = await browser.follow(url);
  const html = await response!.text();
  return { browser, html };
}

describe('mcp-server authorization pages and metadata (2026-07-28 revision)', () => {
  let server: InProcessMcpServer;
  beforeAll(async () => {
    server = await start();
  });

  it('dynamic registration refuses http redirect URIs of a web client except on localhost', async () => {
    const attacker = await register(server, {
      redirect_uris: ['http://attacker.example/cb'],
      application_type: 'web',
    });
    expect(attacker.status).toBe(400);
    expect(await attacker.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const defaultType = await register(server, { redirect_uris: ['http://attacker.example/cb'] });
    expect(defaultType.status).toBe(400);
    for (const uri of [
      'https://app.example/cb',
      'http://localhost:8080/cb',
      'http://127.0.0.1/cb',
      'http://[::1]:9/cb',
    ]) {
      const accepted = await register(server, { redirect_uris: [uri], application_type: 'web' });
      expect(accepted.status, uri).toBe(201);
    }
  });

  it('a bad redirect_uri gets the styled error page, with lang, a main landmark and words for people', async () => {
    const registered = await register(server, {
      client_name: 'Error page test',
      redirect_uris: ['https://app.example/cb'],
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const { html } = await openLogin(server, client_id, 'https://elsewhere.example/cb');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<main id="main"');
    expect(html).toContain('<h1>Authorization error</h1>');
    expect(html).toContain('has not registered');
    expect(html).toContain('<code>invalid_redirect_uri</code>');
    // The shared shell's stylesheet, the same as the marketplace's.
    expect(html).toContain('.site-header{background:#102a43');
  });

  it('login has a main landmark, and after a wrong password keeps the client name and the Deny button', async () => {
    const registered = await register(server, {
      client_name: 'Wrong Password Client',
      redirect_uris: ['https://app.example/cb'],
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const { browser, html } = await openLogin(server, client_id, 'https://app.example/cb');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<main id="main"');
    expect(html).toContain('<strong>Wrong Password Client</strong>');
    const form = formOf(html, 'login');
    const { response } = await browser.follow(new URL(form.action, server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(server.url).origin,
      },
      body: new URLSearchParams({ csrf: form.csrf, username: 'demo', password: 'not it' }),
    });
    expect(response!.status).toBe(401);
    const again = await response!.text();
    expect(again).toContain('role="alert" class="error">Wrong user name or password.');
    expect(again).toContain('<strong>Wrong Password Client</strong>');
    expect(again).toMatch(/<button type="submit" class="secondary">Deny<\/button>/);
    expect(again).toContain('<main id="main"');
    expect(response!.headers.get('content-security-policy')).toMatch(/style-src 'sha256-/);
  });

  it('the consent page shows where it sends the browser, and warns when that is only this computer', async () => {
    const consentOf = async (redirectUri: string, applicationType: 'web' | 'native') => {
      const registered = await register(server, {
        client_name: 'Page test',
        redirect_uris: [redirectUri],
        application_type: applicationType,
      });
      const { client_id } = (await registered.json()) as { client_id: string };
      const { browser, html } = await openLogin(server, client_id, redirectUri);
      const form = formOf(html, 'login');
      const { response } = await browser.follow(new URL(form.action, server.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(server.url).origin,
        },
        body: new URLSearchParams({
          csrf: form.csrf,
          username: server.demoUser!.username,
          password: server.demoUser!.password,
        }),
      });
      return response!.text();
    };
    const remote = await consentOf('https://app.example/cb', 'web');
    expect(remote).toMatch(/Allow access\?/);
    expect(remote).toMatch(/<strong class="redirect-host">app\.example<\/strong>/);
    expect(remote).not.toMatch(/only send you back to this computer/);
    const local = await consentOf('http://127.0.0.1:40123/cb', 'native');
    expect(local).toMatch(/<strong class="redirect-host">127\.0\.0\.1:40123<\/strong>/);
    expect(local).toMatch(
      /role="alert" class="warning">This application can only send you back to this computer/,
    );
  });

  it('protected resource metadata lists the resource scopes only (no offline_access) and the DPoP algorithms', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const prm = await (await server.fetch(`${server.url}${path}`)).json();
      expect(prm.scopes_supported, path).toEqual(['marketplace:read', 'kg:read', 'kg:passthrough']);
    }
  });

  it('the authorization server metadata advertises only endpoints that answer: no PAR', async () => {
    const metadata = (await (
      await server.fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
    expect(metadata.require_pushed_authorization_requests).toBeUndefined();
    const endpoints = Object.entries(metadata).filter(
      ([key, value]) =>
        (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string',
    );
    expect(endpoints.map(([key]) => key).sort()).toEqual([
      'authorization_endpoint',
      'end_session_endpoint',
      'jwks_uri',
      'registration_endpoint',
      'revocation_endpoint',
      'token_endpoint',
    ]);
    // Each with the method it is for: every one answers something other than 404.
    const methods: Record<string, string> = {
      authorization_endpoint: 'GET',
      end_session_endpoint: 'GET',
      jwks_uri: 'GET',
      registration_endpoint: 'POST',
      revocation_endpoint: 'POST',
      token_endpoint: 'POST',
    };
    for (const [key, url] of endpoints) {
      const method = methods[key]!;
      const response = await server.fetch(String(url), {
        method,
        redirect: 'manual',
        ...(method === 'POST'
          ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }
          : {}),
      });
      expect(response.status, `${method} ${key}`).not.toBe(404);
    }
    expect((await server.fetch(`${server.url}/request`, { method: 'POST' })).status).toBe(404);
  });
});

describe('mcp-server: the 2025 lane refuses JSON-RPC batches where the revision removed them', () => {
  let server: InProcessMcpServer;
  beforeAll(async () => {
    server = await start({ oauth: { enabled: false } });
  });
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const post = (body: unknown, version?: string) =>
    server.app.request('/mcp', {
      method: 'POST',
      headers: {
        host: new URL(server.url).host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(version ? { 'mcp-protocol-version': version } : {}),
      },
      body: JSON.stringify(body),
    });

  it.each(['2025-06-18', '2025-11-25'])(
    'refuses a batch under %s with 400 -32600',
    async (version) => {
      const response = await post([ping(1), ping(2)], version);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32600 }, id: null });
    },
  );

  it('refuses a batched initialize asking for 2025-06-18', async () => {
    const response = await post([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'b', version: '1' },
        },
      },
    ]);
    expect(response.status).toBe(400);
  });

  it('answers a batch under 2025-03-26, which still had them, and single messages under any revision', async () => {
    const batch = await post([ping(1), ping(2)], '2025-03-26');
    expect(batch.status).toBe(200);
    expect(await batch.text()).toMatch(/"id":2/);
    const single = await post(ping(3), '2025-11-25');
    expect(single.status).toBe(200);
  });
});

describe('mcp-server login: failed sign-ins back off per account and per client address', () => {
  /** A login form of a fresh authorization, and a function posting it. */
  const loginForm = async (server: InProcessMcpServer) => {
    const registered = await register(server, {
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      application_type: 'native',
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const { browser, html } = await openLogin(server, client_id, 'http://127.0.0.1:33418/callback');
    const form = formOf(html, 'login');
    return {
      html,
      submit: (username: string, password: string) =>
        browser.request(new URL(form.action, server.url), {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: new URL(server.url).origin,
          },
          body: new URLSearchParams({ csrf: form.csrf, username, password }),
        }),
    };
  };

  it('the sixth wrong password locks the account with back-off: 429 + Retry-After, even for the right one', async () => {
    const server = await start();
    const { username, password } = server.demoUser!;
    const { html, submit } = await loginForm(server);
    expect(html).toMatch(/After 5 wrong passwords for one user name, or from one network/);
    for (let i = 0; i < 5; i++) {
      const wrong = await submit(username, `wrong-${i}`);
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('retry-after')).toBeNull();
    }
    const sixth = await submit(username, 'wrong-6');
    expect(sixth.status).toBe(401);
    expect(sixth.headers.get('retry-after')).toBe('1');
    expect(await sixth.text()).toMatch(/Wait 1 s before the next try/);
    const locked = await submit(username, password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await locked.text()).toMatch(/Too many failed sign-ins/);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Each further failure doubles the wait.
    const seventh = await submit(username, 'wrong-7');
    expect(seventh.status).toBe(401);
    expect(seventh.headers.get('retry-after')).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const right = await submit(username, password);
    expect(right.status).toBe(303);
  });

  it('guessing across many user names from one address is locked by the address', async () => {
    const server = await start();
    const { submit } = await loginForm(server);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await submit(`user-${i}`, 'guess')).status);
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    // The real user from the same address waits too: the address is what is locked.
    expect((await submit(server.demoUser!.username, server.demoUser!.password)).status).toBe(429);
  });
});

describe('mcp-server /token: wrong client secrets back off per client and per address', () => {
  const secret = 'a-confidential-client-secret-of-40-chars!';
  it('the sixth wrong secret locks: 429 + Retry-After before the secret is checked', async () => {
    const server = await start({
      oauth: {
        clients: [
          {
            client_id: 'confidential',
            client_secret: secret,
            redirect_uris: ['https://app.example/cb'],
          },
        ],
      },
    });
    const token = (password: string, clientId = 'confidential') =>
      tokenRequest(
        server,
        {
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: 'https://app.example/cb',
          code_verifier: 'x'.repeat(43),
        },
        { authorization: basicAuth(clientId, password) },
      );
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await token(`wrong-${i}`);
      statuses.push(response.status);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    const locked = await token(secret);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await locked.json()).toMatchObject({ error: 'too_many_requests' });
    // The address is locked too, whichever client it names.
    expect((await token('guess', 'another-client')).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Unlocked: the right secret gets through to the grant check (a bogus code: invalid_grant).
    const right = await token(secret);
    expect(right.status).toBe(400);
    expect(await right.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
