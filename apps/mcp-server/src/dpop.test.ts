import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { type DemoMcpServer, demoMcpServer } from './__fixtures__/demo-server.testkit';
import { type DpopKey, dpopAuthorize, dpopKey } from './__fixtures__/dpop-client.testkit';
import type { InProcessMcpServer } from './__fixtures__/in-process.testkit';
import { hashPassword } from './oauth/passwords';
import { type RunningMcpServer, startMcpServer } from './server';

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

describe('mcp-server DPoP (RFC 9449): bound tokens need a proof of their key at /mcp', () => {
  let demo: DemoMcpServer;
  let server: InProcessMcpServer;
  let user: { username: string; password: string };
  let key: DpopKey;
  let token: string;

  beforeAll(async () => {
    demo = await demoMcpServer('mcp-server-dpop-', {
      // Refused proofs are answered 401 on purpose, many times; the limits have their own tests.
      rateLimit: { enabled: false },
    });
    server = demo.server;
    user = server.demoUser!;
    key = await dpopKey();
    const tokens = await dpopAuthorize(server, server.mcpUrl, user, key);
    expect(tokens.token_type).toBe('DPoP');
    token = tokens.access_token;
  });
  afterAll(() => demo?.close());

  /** One 2025-11-25 request to /mcp with the given Authorization and DPoP headers. */
  const mcp = (headers: Record<string, string>, body: unknown = listTools) =>
    server.fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const withProof = async (
    claims: Record<string, unknown> = {},
    signer = key,
    accessToken = token,
  ) => ({
    authorization: `DPoP ${token}`,
    dpop: await signer.proof('POST', server.mcpUrl, accessToken, claims),
  });

  it('the token is bound to the key (cnf.jkt) and both metadata documents advertise DPoP', async () => {
    expect(decodeJwt(token).cnf).toMatchObject({ jkt: expect.any(String) });
    const as = await (
      await server.fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json();
    expect(as.dpop_signing_alg_values_supported).toEqual(['ES256', 'Ed25519', 'EdDSA']);
    const prm = await (
      await server.fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(prm.dpop_signing_alg_values_supported).toEqual(as.dpop_signing_alg_values_supported);
    expect(prm.dpop_bound_access_tokens_required).toBe(false);
  });

  it('an SDK client whose every request carries a fresh proof lists and calls tools', async () => {
    const client = new Client(
      { name: 'dpop', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    let proofs = 0;
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `DPoP ${token}`);
        headers.set('dpop', await key.proof(init?.method ?? 'GET', String(input), token));
        proofs++;
        return server.fetch(input, { ...init, headers });
      },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(9);
    const result = (await client.callTool({
      name: 'get_contract_compliance',
      arguments: { contractId: DEMO.contracts.violated },
    })) as { isError?: boolean; structuredContent?: { status: string } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.status).toBe('violated');
    expect(proofs).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it('a DPoP-bound token sent as Bearer is refused (§7.2)', async () => {
    const response = await mcp({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toMatch(
      /DPoP error="invalid_token", error_description="[^"]+", algs="ES256 Ed25519 EdDSA"/,
    );
  });

  it('a 401 without a token offers both schemes, Bearer first with its resource metadata', async () => {
    const response = await mcp({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer .*resource_metadata="[^"]+", DPoP algs="ES256 Ed25519 EdDSA"$/,
    );
  });

  it.each([
    ['no proof', async () => ({ authorization: `DPoP ${token}` })],
    [
      'two proofs',
      async () => {
        const one = await key.proof('POST', server.mcpUrl, token);
        return { authorization: `DPoP ${token}`, dpop: `${one}, ${one}` };
      },
    ],
    ['another method (htm)', () => withProof({ htm: 'GET' })],
    ['another URL (htu)', () => withProof({ htu: 'http://other.example/mcp' })],
    ['made 5 minutes ago (iat)', () => withProof({ iat: Math.floor(Date.now() / 1000) - 300 })],
    ['made 5 minutes ahead (iat)', () => withProof({ iat: Math.floor(Date.now() / 1000) + 300 })],
    ['for another token (ath)', () => withProof({}, key, `${token}x`)],
    ['without ath', () => withProof({ ath: undefined })],
    ['without jti', () => withProof({ jti: undefined })],
    ['signed by another key (cnf.jkt)', async () => withProof({}, await dpopKey())],
  ])('a proof with %s is refused as invalid_dpop_proof', async (_label, headers) => {
    const response = await mcp(await headers());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/DPoP error="invalid_dpop_proof"/);
  });

  it('a proof is used once: the same proof sent 20 times at once is answered once', async () => {
    const headers = await withProof();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => mcp(headers).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
  });

  it('an Ed25519 key works end to end', async () => {
    const edKey = await dpopKey('Ed25519');
    const tokens = await dpopAuthorize(server, server.mcpUrl, user, edKey);
    expect(tokens.token_type).toBe('DPoP');
    const response = await mcp({
      authorization: `DPoP ${tokens.access_token}`,
      dpop: await edKey.proof('POST', server.mcpUrl, tokens.access_token),
    });
    expect(response.status).toBe(200);
  });

  it('an unbound Bearer token still works as Bearer, and is refused under the DPoP scheme', async () => {
    const tokens = await dpopAuthorize(server, server.mcpUrl, user, undefined);
    expect(tokens.token_type).toBe('Bearer');
    expect((await mcp({ authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    const response = await mcp({
      authorization: `DPoP ${tokens.access_token}`,
      dpop: await key.proof('POST', server.mcpUrl, tokens.access_token),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/DPoP error="invalid_token"/);
  });
});

const postgres = await postgresAvailable();

describe.skipIf(!postgres)('mcp-server DPoP across two instances on one PostgreSQL', () => {
  let backends: Backends;
  const servers: RunningMcpServer[] = [];
  const dirs: string[] = [];
  let drop: () => Promise<void>;
  const user = { username: 'ada', password: 'correct horse battery staple' };

  beforeAll(async () => {
    backends = await startBackends();
    const { schema, drop: dropSchema } = randomSchema();
    drop = dropSchema;
    const passwordHash = await hashPassword(user.password);
    // Both instances serve one public URL (as behind a load balancer): the first one's.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    for (const listen of [port, 0]) {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-dpop-pg-'));
      dirs.push(dir);
      servers.push(
        await startMcpServer({
          dataDir: dir,
          port: listen,
          databaseUrl: TEST_DATABASE_URL,
          config: {
            publicUrl: `http://127.0.0.1:${port}`,
            governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
            knowledgeGraph: { baseUrl: backends.kg.url },
            oauth: { users: [{ username: user.username, passwordHash }] },
            storage: { postgres: { schema } },
            rateLimit: { enabled: false },
          },
          logger: createLogger('test', { level: 'silent' }),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await backends?.close();
    await drop?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('one proof sent to both instances at once is answered once, in each of 5 trials', async () => {
    const [a, b] = servers as [RunningMcpServer, RunningMcpServer];
    const key = await dpopKey();
    const { access_token: token } = await dpopAuthorize(a.url, a.mcpUrl, user, key);
    for (let trial = 0; trial < 5; trial++) {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `DPoP ${token}`,
        dpop: await key.proof('POST', a.mcpUrl, token),
      };
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`${(i % 2 ? a : b).url}/mcp`, {
            method: 'POST',
            headers,
            body: JSON.stringify(listTools),
          }).then((r) => r.status),
        ),
      );
      expect(
        statuses.filter((s) => s === 200),
        `trial ${trial}: ${statuses}`,
      ).toHaveLength(1);
    }
  });
});
