import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createLogger, parseConfig } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { McpServerConfigSchema } from './config';

const ALLOWED = 'https://inspector.example';
const OTHER = 'https://evil.example';

describe('mcp-server CORS and DNS-rebinding protection', () => {
  let server: InProcessMcpServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-cors-'));
    server = await inProcessMcpServer({
      dataDir: dir,
      demo: true,
      config: { cors: { origin: [ALLOWED, 'http://localhost:6274'] } },
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const endpoints: { path: string; method: 'GET' | 'POST'; body?: string; type?: string }[] = [
    { path: '/.well-known/oauth-protected-resource/mcp', method: 'GET' },
    { path: '/.well-known/oauth-protected-resource', method: 'GET' },
    { path: '/.well-known/oauth-authorization-server', method: 'GET' },
    { path: '/.well-known/openid-configuration', method: 'GET' },
    { path: '/jwks', method: 'GET' },
    { path: '/register', method: 'POST', body: '{}', type: 'application/json' },
    {
      path: '/token',
      method: 'POST',
      body: 'grant_type=refresh_token&refresh_token=x&client_id=y',
      type: 'application/x-www-form-urlencoded',
    },
    {
      path: '/revoke',
      method: 'POST',
      body: 'token=x&client_id=y',
      type: 'application/x-www-form-urlencoded',
    },
    {
      path: '/mcp',
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      type: 'application/json',
    },
  ];

  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}: preflight and answer for the allowed origin only`, async () => {
      const preflight = await server.fetch(`${server.url}${endpoint.path}`, {
        method: 'OPTIONS',
        headers: {
          origin: ALLOWED,
          'access-control-request-method': endpoint.method,
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/\bdpop\b/);
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(endpoint.method);
      expect(preflight.headers.get('access-control-expose-headers')).toBe(
        'mcp-session-id, mcp-protocol-version, www-authenticate',
      );

      const otherPreflight = await server.fetch(`${server.url}${endpoint.path}`, {
        method: 'OPTIONS',
        headers: { origin: OTHER, 'access-control-request-method': endpoint.method },
      });
      expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();

      const init = (origin: string): RequestInit => ({
        method: endpoint.method,
        headers: {
          origin,
          accept: 'application/json, text/event-stream',
          ...(endpoint.type ? { 'content-type': endpoint.type } : {}),
        },
        ...(endpoint.body ? { body: endpoint.body } : {}),
      });
      const allowed = await server.fetch(`${server.url}${endpoint.path}`, init(ALLOWED));
      expect(allowed.status).toBeLessThan(500);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(allowed.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/);
      const other = await server.fetch(`${server.url}${endpoint.path}`, init(OTHER));
      expect(other.status).toBeLessThan(500);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  }

  it('/mcp refuses a request from an origin not configured with 403 (DNS rebinding)', async () => {
    const refused = await server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        origin: OTHER,
        'content-type': 'application/json',
        authorization: 'Bearer whatever',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      status: 403,
      detail: expect.stringMatching(/evil\.example/),
    });
    const unauthenticated = await server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
  });

  it('/mcp accepts its own origin (and its loopback aliases) and refuses another Host name', async () => {
    const port = new URL(server.url).port;
    for (const self of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const response = await server.fetch(server.mcpUrl, {
        method: 'POST',
        headers: { origin: self, 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(response.status, self).toBe(401); // past the origin check, at the token check
    }
    const otherHost = await server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(otherHost.status).toBe(403);
  });

  it('/authorize answers no CORS, even to an allowed origin', async () => {
    const preflight = await server.fetch(`${server.url}/authorize`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const get = await server.fetch(`${server.url}/authorize?client_id=x`, {
      headers: { origin: ALLOWED },
      redirect: 'manual',
    });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('mcp-server cors.origin configuration', () => {
  const problems = (origin: unknown) => {
    try {
      parseConfig(McpServerConfigSchema, { cors: { origin } }, 'configuration file test.yaml');
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('names the key and the reason, never just "Invalid input"', () => {
    expect(problems(42)).toEqual([
      { key: 'cors.origin', message: 'expected string or array, received number' },
    ]);
    expect(problems([ALLOWED, `${OTHER}/path`])).toEqual([
      {
        key: 'cors.origin[1]',
        message: 'must be an origin such as https://app.example.com (scheme, host, port; no path)',
      },
    ]);
    expect(problems([ALLOWED])).toEqual([]);
  });
});
