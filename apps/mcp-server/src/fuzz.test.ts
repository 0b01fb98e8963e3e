import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkce } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const REDIRECT = 'http://127.0.0.1:42000/cb';

describe('fuzz: every OAuth endpoint and /mcp under hostile input', () => {
  let server: RunningMcpServer;
  let dir: string;
  let clientId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-fuzz-'));
    server = await startMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        oauth: {
          dynamicRegistration: { enabled: true, perMinute: 1000, unusedClientTtlSeconds: 3600 },
        },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
    const registered = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
      }),
    });
    clientId = ((await registered.json()) as { client_id: string }).client_id;
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
        const response = await fetch(`${server.url}/token`, {
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
        const authorize = await fetch(`${server.url}/authorize?${form(p)}`, { redirect: 'manual' });
        expect(authorize.status).toBeLessThan(500);
        const revoke = await fetch(`${server.url}/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form(p),
        });
        expect(revoke.status).toBeLessThan(500);
        const register = await fetch(`${server.url}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: raw,
        });
        expect(register.status).toBeLessThan(500);
        const mcp = await fetch(server.mcpUrl, {
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
    return fetch(`${server.url}/authorize?${form(p)}`, { redirect: 'manual' });
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
