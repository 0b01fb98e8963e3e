import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieBrowser } from './__fixtures__/oauth-client.testkit';
import {
  authorizationCode,
  registerClient,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const available = await postgresAvailable();
const logger = createLogger('test', { level: 'silent' });
/** Trials per kind of grant (`TRIALS=400` to hunt a rare race), and concurrent token requests per trial. */
const TRIALS = Number(process.env.TRIALS ?? 60);
const CONCURRENT = 8;
const REDIRECT = 'http://127.0.0.1:40000/cb';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

type Answer = { status: number; body: Record<string, string> };

/**
 * OAuth 2.1 §4.1.3 under concurrency, for each store, on one instance and on two that share it:
 * of N identical token requests with one code (or one refresh token) sent at once, exactly one
 * gets 200; the others get invalid_grant, and the grant is revoked as a reuse, so the winner's
 * tokens die too.
 */
describe.each([
  { store: 'sqlite' as const, instances: 1 },
  { store: 'sqlite' as const, instances: 2 },
  { store: 'postgres' as const, instances: 1 },
  { store: 'postgres' as const, instances: 2 },
])(
  'single-use grants: $store, $instances instance(s)',
  { timeout: 120_000 },
  ({ store, instances }) => {
    const skip = store === 'postgres' && !available;
    const servers: RunningMcpServer[] = [];
    const dirs: string[] = [];
    const schema = randomSchema();
    let clientId: string;
    let password: string;
    const browser = new CookieBrowser();

    beforeAll(async () => {
      if (skip) return;
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      const shared = mkdtempSync(join(tmpdir(), 'mcp-single-use-'));
      dirs.push(shared);
      const config = {
        publicUrl,
        governance: { baseUrl: 'http://127.0.0.1:9' },
        knowledgeGraph: { baseUrl: 'http://127.0.0.1:9' },
        // Bursts of token requests are the point here; the limits have their own tests.
        rateLimit: { enabled: false },
        ...(store === 'postgres' ? { storage: { postgres: { schema: schema.schema } } } : {}),
      };
      for (let i = 0; i < instances; i++) {
        // SQLite: both instances on one data folder (one oauth.db, one key file).
        const dataDir =
          store === 'sqlite' || i === 0 ? shared : mkdtempSync(join(tmpdir(), 'mcp-su-'));
        if (dataDir !== shared) dirs.push(dataDir);
        servers.push(
          await startMcpServer({
            dataDir,
            demo: true,
            config,
            logger,
            ...(i === 0 ? { port } : {}),
            ...(store === 'postgres' ? { databaseUrl: TEST_DATABASE_URL } : {}),
          }),
        );
      }
      password = servers[0]!.demoUser!.password;
      ({ client_id: clientId } = await registerClient(publicUrl, {
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        application_type: 'native',
      }));
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      if (store === 'postgres' && available) await schema.drop();
    });

    /** Signs in (once per browser) and consents; answers a fresh code and its PKCE verifier. */
    const code = () =>
      authorizationCode(browser, servers[0]!.url, {
        clientId,
        redirectUri: REDIRECT,
        scope: 'marketplace:read offline_access',
        resource: servers[0]!.mcpUrl,
        state: 's',
        username: 'demo',
        password,
      });
    const token = async (i: number, form: Record<string, string>): Promise<Answer> => {
      const response = await tokenRequest(servers[i % servers.length]!.url, {
        client_id: clientId,
        ...form,
      });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    };
    const exchange = (i: number, grant: { code: string; verifier: string }) =>
      token(i, {
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: REDIRECT,
        code_verifier: grant.verifier,
      });
    const refresh = (i: number, refreshToken: string) =>
      token(i, { grant_type: 'refresh_token', refresh_token: refreshToken });
    /** Answers the status of a tools/list call (its body read, so the connection is free again). */
    const listTools = async (accessToken: string) => {
      const response = await fetch(servers[0]!.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${accessToken}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      await response.arrayBuffer();
      return response.status;
    };

    /** Checks one trial: one 200, the rest invalid_grant, and the winner's grant revoked. */
    const judge = async (answers: Answer[]) => {
      const won = answers.filter((a) => a.status === 200);
      expect(won, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
      for (const lost of answers.filter((a) => a.status !== 200)) {
        expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      }
      const winner = won[0]!.body;
      const grantId = decodeJwt(winner.access_token!).gid as string;
      expect(await servers[0]!.store!.grantAlive(grantId)).toBe(false);
      expect(await refresh(1, winner.refresh_token!)).toMatchObject({ status: 400 });
      return winner.access_token!;
    };

    it.skipIf(skip)(
      `${TRIALS} trials of ${CONCURRENT} concurrent token requests with one code: exactly one 200, the grant revoked`,
      async () => {
        const winners: string[] = [];
        for (let trial = 0; trial < TRIALS; trial++) {
          const grant = await code();
          const answers = await Promise.all(
            Array.from({ length: CONCURRENT }, (_, i) => exchange(i, grant)),
          );
          winners.push(await judge(answers));
        }
        await new Promise((resolve) => setTimeout(resolve, 1_100)); // the verifier's grant cache
        for (const accessToken of winners) expect(await listTools(accessToken)).toBe(401);
      },
    );

    it.skipIf(skip)(
      `${TRIALS} trials of ${CONCURRENT} concurrent refreshes with one refresh token: exactly one 200, the family revoked`,
      async () => {
        const winners: string[] = [];
        for (let trial = 0; trial < TRIALS; trial++) {
          const first = await exchange(0, await code());
          expect(first.status).toBe(200);
          expect(first.body.refresh_token).toEqual(expect.any(String));
          expect(await listTools(first.body.access_token!)).toBe(200);
          const answers = await Promise.all(
            Array.from({ length: CONCURRENT }, (_, i) => refresh(i, first.body.refresh_token!)),
          );
          winners.push(await judge(answers), first.body.access_token!);
        }
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        for (const accessToken of winners) expect(await listTools(accessToken)).toBe(401);
      },
    );
  },
);
