import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import {
  postgresAvailable,
  postgresOutage,
  randomSchema,
  TEST_DATABASE_URL,
} from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { CookieBrowser, formOf, pkce } from './__fixtures__/oauth-client.testkit';
import {
  authorizationUrl,
  basicAuth,
  registerClient,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const available = await postgresAvailable();
const logger = createLogger('test', { level: 'silent' });
const SECRET = 'a-confidential-client-secret-of-40-chars!';
const CLIENTS = [
  { client_id: 'confidential', client_secret: SECRET, redirect_uris: ['https://app.example/cb'] },
];

const dirs: string[] = [];
const servers: RunningMcpServer[] = [];
const schemas: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const drop of schemas) await drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Config = Parameters<typeof startMcpServer>[0]['config'] & object;

async function start(databaseUrl: string, schema: string, config: Config = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shared-limits-'));
  dirs.push(dir);
  const server = await startMcpServer({
    dataDir: dir,
    databaseUrl,
    demo: true,
    logger,
    config: { ...config, storage: { postgres: { schema } } },
  });
  servers.push(server);
  return server;
}

/** Two instances of mcp-server on one fresh PostgreSQL schema. */
async function twoInstances(config: Config = {}) {
  const { schema, drop } = randomSchema('dcg_mcp_limits');
  schemas.push(drop);
  return [
    await start(TEST_DATABASE_URL, schema, config),
    await start(TEST_DATABASE_URL, schema, config),
  ] as const;
}

/** A login form of a fresh authorization on `server`, and a function posting it. */
async function loginForm(server: RunningMcpServer) {
  const { client_id } = await registerClient(server.url, {
    redirect_uris: ['http://127.0.0.1:33418/callback'],
    application_type: 'native',
  });
  const browser = new CookieBrowser();
  const { response } = await browser.follow(
    authorizationUrl(server.url, {
      clientId: client_id,
      redirectUri: 'http://127.0.0.1:33418/callback',
      challenge: pkce().challenge,
    }),
  );
  const form = formOf(await response!.text(), 'login');
  return (username: string, password: string) =>
    browser.request(new URL(form.action, server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(server.url).origin,
      },
      body: new URLSearchParams({ csrf: form.csrf, username, password }),
    });
}

const token = (server: RunningMcpServer, secret: string) =>
  tokenRequest(
    server.url,
    {
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'https://app.example/cb',
      code_verifier: 'x'.repeat(43),
    },
    { authorization: basicAuth('confidential', secret) },
  );

describe.skipIf(!available)('mcp-server on PostgreSQL: limits shared by two instances', () => {
  it('a budget of N anonymous requests is spent once across both: the (N+1)th answers 429 with Retry-After', async () => {
    const [a, b] = await twoInstances({
      rateLimit: { anonymous: { requestsPerSecond: 0.01, burst: 5 } },
    });
    const metadata = (server: RunningMcpServer) =>
      fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await metadata(i % 2 ? b : a)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const server of [a, b]) {
      const refused = await metadata(server);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(400);
    }
  });

  it('five wrong passwords in all, on either instance, then the account backs off on both', async () => {
    const [a, b] = await twoInstances();
    const onA = await loginForm(a);
    const onB = await loginForm(b);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await (i % 2 ? onB : onA)('demo', `wrong-${i}`);
      statuses.push(wrong.status);
      expect(wrong.headers.get('retry-after')).toBeNull();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await onB('demo', 'wrong-5');
    expect(sixth.status).toBe(401);
    expect(sixth.headers.get('retry-after')).toBe('1');
    // Locked on the other instance too, even with the right password of that instance's user.
    const locked = await onA('demo', a.demoUser!.password);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await locked.text()).toMatch(/Too many failed sign-ins/);
  });

  it('six wrong client secrets in all lock the client at /token on both instances', async () => {
    const [a, b] = await twoInstances({ oauth: { clients: CLIENTS } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await token(i % 2 ? b : a, `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    for (const server of [a, b]) {
      const locked = await token(server, SECRET);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await locked.json()).toMatchObject({ error: 'too_many_requests' });
    }
  });

  it('many simultaneous requests on both instances: never more 200s than the budget', async () => {
    const [a, b] = await twoInstances({
      rateLimit: { anonymous: { requestsPerSecond: 0.01, burst: 12 } },
    });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${(i % 2 ? b : a).url}/.well-known/oauth-protected-resource/mcp`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(48);
  });

  it('when PostgreSQL stops answering, /token fails closed: 503 with Retry-After, no secret checked', async () => {
    const { schema, drop } = randomSchema('dcg_mcp_limits');
    schemas.push(drop);
    const outage = await postgresOutage();
    const server = await start(outage.url, schema, {
      oauth: { clients: CLIENTS },
      rateLimit: { sharedStoreTimeoutMs: 500 },
    });
    expect((await token(server, 'wrong')).status).toBe(401);
    await outage.cut();
    const refused = await token(server, SECRET);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});
