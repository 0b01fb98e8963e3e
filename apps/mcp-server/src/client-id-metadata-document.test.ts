import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createLogger } from '@dcg/http-kit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { authorize, MemoryOAuthClient, pkce } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const MAX_BYTES = 2048;

/**
 * A client's HTTPS host on loopback, with a certificate made for this run: its metadata document,
 * and documents that must be refused (a redirect, one too large, one that never comes).
 */
async function startClientHost(dir: string) {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-days', '1'],
      ...['-keyout', key, '-out', cert],
    ],
    { stdio: 'ignore' },
  );
  const requests: Record<string, number> = {};
  let base = '';
  const document = (path: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      client_id: `${base}${path}`,
      client_name: 'A client with a metadata document',
      redirect_uris: [REDIRECT],
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });
  const server: Server = createServer(
    { key: readFileSync(key), cert: readFileSync(cert) },
    (req, res) => {
      const path = req.url ?? '/';
      requests[path] = (requests[path] ?? 0) + 1;
      if (path === '/client.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
        res.end(document(path));
      } else if (path === '/redirect.json') {
        res.writeHead(302, { location: '/client.json' }).end();
      } else if (path === '/large.json' || path === '/padded.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const padding = 'x'.repeat(path === '/large.json' ? MAX_BYTES : MAX_BYTES / 4);
        res.end(document(path, { client_name: `Padded ${padding}` }));
      } else if (path === '/slow.json') {
        // Never answers: the fetch must give up at its deadline.
      } else {
        res.writeHead(404).end();
      }
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    caFile: cert,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** GET /authorize with a metadata document URL as client_id, as a browser would. */
async function authorizeWith(serverUrl: string, clientId: string): Promise<Response> {
  const { challenge } = pkce();
  return fetch(
    `${serverUrl}/authorize?${new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'marketplace:read',
    })}`,
    { redirect: 'manual' },
  );
}

describe('mcp-server: Client ID Metadata Documents fetched over HTTPS', () => {
  let backends: Backends;
  let host: Awaited<ReturnType<typeof startClientHost>>;
  let server: RunningMcpServer;
  let guarded: RunningMcpServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-server-cimd-'));
    [backends, host] = await Promise.all([startBackends(), startClientHost(dir)]);
    const logger = createLogger('test', { level: 'silent' });
    server = await startMcpServer({
      dataDir: join(dir, 'loopback-allowed'),
      demo: true,
      config: {
        governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
        knowledgeGraph: { baseUrl: backends.kg.url },
        oauth: {
          clientIdMetadataDocumentFetch: {
            allowLoopbackForTests: true,
            trustedCaFile: host.caFile,
            timeoutMs: 1000,
            maxBytes: MAX_BYTES,
          },
        },
      },
      logger,
    });
    // The same trust, without the test switch: loopback stays a private address.
    guarded = await startMcpServer({
      dataDir: join(dir, 'guarded'),
      demo: true,
      config: { oauth: { clientIdMetadataDocumentFetch: { trustedCaFile: host.caFile } } },
      logger,
    });
  });
  afterAll(async () => {
    await guarded?.close();
    await server?.close();
    await host?.close();
    await backends?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a fetched document through the whole flow: authorize, login, token, tools/call', async () => {
    const clientId = `${host.base}/client.json`;
    const oauth = new MemoryOAuthClient({
      redirectUrl: REDIRECT,
      clientMetadataUrl: clientId,
      applicationType: 'native',
    });
    const { accessToken } = await authorize(
      server.mcpUrl,
      server.url,
      server.demoUser!.username,
      server.demoUser!.password,
      { oauth },
    );
    // The SDK used the document URL as its client id: no dynamic registration took place.
    expect(oauth.information?.client_id).toBe(clientId);
    expect(oauth.authorizationUrl?.searchParams.get('client_id')).toBe(clientId);
    expect(accessToken).toEqual(expect.any(String));

    const client = new Client(
      { name: 'cimd-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), { authProvider: oauth }),
    );
    try {
      const answer = (await client.callTool({
        name: 'get_contract_compliance',
        arguments: { contractId: DEMO.contracts.violated },
      })) as { isError?: boolean; structuredContent?: { status: string } };
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent?.status).toBe('violated');
    } finally {
      await client.close();
    }
    // Fetched once for authorize and token alike: the document is cached (max-age=300).
    expect(host.requests['/client.json']).toBe(1);
  });

  it.each([
    ['a redirect (never followed)', '/redirect.json'],
    ['a document over maxBytes', '/large.json'],
    ['a document that does not arrive within timeoutMs', '/slow.json'],
  ])('refuses %s: 400 invalid_client, no redirect to the client', async (_label, path) => {
    const targetBefore = host.requests['/client.json'] ?? 0;
    const response = await authorizeWith(server.url, `${host.base}${path}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/invalid_client/);
    // It was asked for (a refusal is not cached, so oidc-provider may ask again on the error path)…
    expect(host.requests[path]).toBeGreaterThanOrEqual(1);
    // …and the redirect's target never was.
    expect(host.requests['/client.json'] ?? 0).toBe(targetBefore);
  });

  it('accepts the same document under maxBytes: the size alone refused the large one', async () => {
    const response = await authorizeWith(server.url, `${host.base}/padded.json`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^\/interaction\//);
  });

  it('without the test switch a loopback document is a private address: never requested', async () => {
    const before = host.requests['/client.json'] ?? 0;
    const response = await authorizeWith(guarded.url, `${host.base}/client.json?guarded`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/invalid_client/);
    expect(host.requests['/client.json?guarded']).toBeUndefined();
    expect(host.requests['/client.json'] ?? 0).toBe(before);
  });

  it('refuses the test switch in production at start-up', async () => {
    const failure = await startMcpServer({
      dataDir: join(dir, 'production'),
      env: { NODE_ENV: 'production' },
      config: { oauth: { clientIdMetadataDocumentFetch: { allowLoopbackForTests: true } } },
      logger: createLogger('test', { level: 'silent' }),
    }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(ConfigError.isInstance(failure)).toBe(true);
    expect((failure as ConfigError).problems[0]?.key).toBe(
      'oauth.clientIdMetadataDocumentFetch.allowLoopbackForTests',
    );
  });
});
