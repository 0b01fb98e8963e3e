import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { authorize, pkce } from './__fixtures__/oauth-client.testkit';

const REDIRECT = 'http://127.0.0.1:42000/cb';

describe('fuzz: every OAuth endpoint and /mcp under hostile input', () => {
  let server: InProcessMcpServer;
  let dir: string;
  let clientId: string;
  let accessToken: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-fuzz-'));
    server = await inProcessMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        oauth: {
          dynamicRegistration: { enabled: true, perMinute: 1000, unusedClientTtlSeconds: 3600 },
        },
        // Off: every fuzzed request must reach the code under test, not a 429.
        rateLimit: { enabled: false },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
    const registered = await server.fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
      }),
    });
    clientId = ((await registered.json()) as { client_id: string }).client_id;
    // Before the fuzzing of /token: its wrong client credentials lock this address out of /token
    // for a while (the back-off of token-endpoint-throttle.ts), as they would lock out an attacker.
    const { username, password } = server.demoUser!;
    ({ accessToken } = await authorize(server.mcpUrl, server, username, password));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const hostile = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '',
      ' ',
      '%00',
      '\u0000',
      '../../etc/passwd',
      'a'.repeat(5000),
      '{"a":1}',
      '<script>',
      'S256',
      'plain',
    ),
  );
  const params = fc.dictionary(
    fc.constantFrom(
      'client_id',
      'response_type',
      'redirect_uri',
      'code_challenge',
      'code_challenge_method',
      'scope',
      'resource',
      'state',
      'grant_type',
      'code',
      'code_verifier',
      'refresh_token',
      'token',
      'prompt',
    ),
    hostile,
    { maxKeys: 8 },
  );
  const form = (p: Record<string, string>) => new URLSearchParams(p).toString();

  it('/token: never 5xx, never a token without a valid grant', async () => {
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const response = await server.fetch(`${server.url}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ client_id: clientId, ...p }),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        expect(text).not.toMatch(/access_token/);
      }),
      { numRuns: 80 },
    );
  });

  it('/authorize, /revoke, /register, /mcp: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(params, fc.string({ maxLength: 300 }), async (p, raw) => {
        const authorize = await server.fetch(`${server.url}/authorize?${form(p)}`, {
          redirect: 'manual',
        });
        expect(authorize.status).toBeLessThan(500);
        const revoke = await server.fetch(`${server.url}/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form(p),
        });
        expect(revoke.status).toBeLessThan(500);
        const register = await server.fetch(`${server.url}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: raw,
        });
        expect(register.status).toBeLessThan(500);
        const mcp = await server.fetch(server.mcpUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${raw.replace(/[^\x21-\x7e]/g, '')}`,
          },
          body: raw,
        });
        expect(mcp.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  const mcp = (body: string | Uint8Array, token = accessToken) =>
    server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        authorization: `Bearer ${token}`,
      },
      body: typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]),
    });

  it('/mcp with a valid token: fuzzed JSON-RPC params of every method are never 5xx, and a bad shape is -32602 not -32603', async () => {
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('search_marketplace', 'sparql_query', 'dcg://nowhere', 'find_data', ''),
    );
    const paramsOf = fc.oneof(
      fc.constant(undefined),
      fc.dictionary(
        fc.constantFrom('name', 'arguments', 'cursor', 'uri', 'ref', 'argument', 'level', '_meta'),
        value,
        { maxKeys: 4 },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const method = fc.constantFrom(
      'tools/list',
      'tools/call',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'prompts/list',
      'prompts/get',
      'completion/complete',
      'logging/setLevel',
      'ping',
      'no/such/method',
    );
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(method, paramsOf, async (m, params) => {
        const response = await mcp(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: m,
            ...(params === undefined ? {} : { params }),
          }),
        );
        requests++;
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        // -32603 only for what it means: this server has no backends to reach, nothing else.
        for (const match of text.matchAll(/"code":-32603,"message":"([^"]*)"/g)) {
          expect(match[1]).toMatch(/^cannot reach /);
        }
      }),
      { numRuns: 150 },
    );
    expect(requests).toBe(150);
  });

  it('/mcp answers params of the wrong shape with -32602 naming the path', async () => {
    for (const [method, params, path] of [
      ['tools/list', { cursor: 5 }, 'params.cursor'],
      ['resources/read', {}, 'params.uri'],
      ['prompts/get', { name: 7 }, 'params.name'],
      ['tools/call', { name: 'search_marketplace', arguments: 'x' }, 'params.arguments'],
    ] as const) {
      const response = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params }));
      expect(response.status).toBe(200);
      const answer = (await response.json()) as {
        id: number;
        error: { code: number; data: { issues: { path: string }[] } };
      };
      expect(answer.id).toBe(3);
      expect(answer.error.code, method).toBe(-32602);
      expect(answer.error.data.issues.map((i) => i.path)).toContain(path);
    }
  });

  it('/mcp refuses a body that is not UTF-8 with the offset, whatever bytes come before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), async (prefix) => {
        const head = new TextEncoder().encode(
          `{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"${prefix.replace(/["\\]/g, '')}`,
        );
        const body = new Uint8Array([...head, 0xff, 0x22, 0x7d]);
        const response = await mcp(body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ byteOffset: head.length });
      }),
      { numRuns: 30 },
    );
  });

  it('the other OAuth endpoints (discovery, jwks, registration reads, session end): never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/.well-known/oauth-authorization-server',
          '/.well-known/openid-configuration',
          '/jwks',
          '/register',
          '/session/end',
          '/revoke',
          '/token',
        ),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
        fc.string({ maxLength: 60 }),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
        async (path, method, raw, type) => {
          const response = await server.fetch(
            `${server.url}${path}${method === 'GET' ? `/${encodeURIComponent(raw)}` : ''}?client_id=${encodeURIComponent(raw)}`,
            {
              method,
              headers: {
                ...(type ? { 'content-type': type } : {}),
                authorization: `Bearer ${raw.replace(/[^\x21-\x7e]/g, '') || 'x'}`,
              },
              ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: raw }),
            },
          );
          expect(response.status, `${method} ${path}`).toBeLessThan(500);
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        },
      ),
      { numRuns: 120 },
    );
  });

  const authorizeWith = async (overrides: Record<string, string | undefined>) => {
    const { challenge } = pkce();
    const p: Record<string, string> = {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: server.mcpUrl,
      state: 'st',
    };
    for (const [key, value] of Object.entries(overrides)) {
      if (value === undefined) delete p[key];
      else p[key] = value;
    }
    return server.fetch(`${server.url}/authorize?${form(p)}`, { redirect: 'manual' });
  };

  it('missing PKCE or a plain challenge is refused, with iss on the error redirect', async () => {
    for (const overrides of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge_method: 'plain' },
      { code_challenge: 'short' },
    ]) {
      const response = await authorizeWith(overrides);
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('iss')).toBe(new URL(server.url).origin);
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('redirect URI variations that do not match exactly are refused without a redirect', async () => {
    for (const redirect of [
      'http://127.0.0.1:42000/cb/',
      'http://127.0.0.1:42000/cb?x=1',
      'http://127.0.0.1:42000/CB',
      'http://localhost:42000/cb',
      'http://127.0.0.1.evil.example:42000/cb',
      'https://127.0.0.1:42000/cb',
      'http://127.0.0.1:42000/cb#frag',
    ]) {
      const response = await authorizeWith({ redirect_uri: redirect });
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
    // Loopback: any port is the same redirect URI (RFC 8252).
    const otherPort = await authorizeWith({ redirect_uri: 'http://127.0.0.1:42999/cb' });
    expect(otherPort.status).toBe(303);
    expect(new URL(otherPort.headers.get('location')!, server.url).pathname).toMatch(
      /^\/interaction\//,
    );
  });
});
