import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/governance/testing';
import { createLogger } from '@dcg/http-kit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backends,
  DEMO,
  GOVERNANCE_KEY,
  startBackends,
} from './__fixtures__/backends.testkit';
import { authorize } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const available = await postgresAvailable();
const logger = createLogger('test', { level: 'silent' });

const callTool = async (mcpUrl: string, token: string) => {
  const client = new Client(
    { name: 'shared', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return (await client.callTool({
      name: 'get_contract_compliance',
      arguments: { contractId: DEMO.contracts.violated },
    })) as { structuredContent?: { status: string } };
  } finally {
    await client.close();
  }
};

describe('mcp-server instances and restarts', () => {
  let backends: Backends;
  const dirs: string[] = [];
  const servers: RunningMcpServer[] = [];
  const schema = randomSchema();

  beforeAll(async () => {
    backends = await startBackends();
  });
  afterAll(async () => {
    for (const server of servers) await server.close().catch(() => undefined);
    await backends?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (available) await schema.drop();
  });

  const config = (publicUrl?: string) => ({
    ...(publicUrl ? { publicUrl } : {}),
    governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
    knowledgeGraph: { baseUrl: backends.kg.url },
    storage: { postgres: { schema: schema.schema } },
  });
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-server-shared-'));
    dirs.push(dir);
    return dir;
  };

  it.skipIf(!available)(
    'two instances on one PostgreSQL serve one user: log in through one, call tools through the other',
    async () => {
      const first = await startMcpServer({
        dataDir: newDir(),
        databaseUrl: TEST_DATABASE_URL,
        demo: true,
        config: config(),
        logger,
      });
      servers.push(first);
      // Behind one load balancer both instances answer for the same public URL (here: the first's).
      const second = await startMcpServer({
        dataDir: newDir(),
        databaseUrl: TEST_DATABASE_URL,
        config: {
          ...config(first.url),
          oauth: {
            users: [
              {
                username: 'demo',
                passwordHash:
                  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
              },
            ],
          },
        },
        logger,
      });
      servers.push(second);
      const { accessToken } = await authorize(
        first.mcpUrl,
        first.url,
        first.demoUser!.username,
        first.demoUser!.password,
      );
      const answer = await callTool(`${second.url}/mcp`, accessToken);
      expect(answer.structuredContent?.status).toBe('violated');
    },
  );

  it('rotating the signing key at a restart keeps live tokens valid', async () => {
    const dir = newDir();
    const sqliteConfig = { ...config(), storage: {}, oauth: { signingKeyRotationDays: 1 } };
    const before = await startMcpServer({ dataDir: dir, demo: true, config: sqliteConfig, logger });
    const { accessToken } = await authorize(
      before.mcpUrl,
      before.url,
      before.demoUser!.username,
      before.demoUser!.password,
    );
    const port = before.port;
    await before.close();
    // Two days later: the key is due for rotation.
    const file = join(dir, 'oauth-keys.json');
    const keys = JSON.parse(readFileSync(file, 'utf8'));
    keys.jwks.keys[0]['dcg:createdAt'] -= 2 * 86_400;
    writeFileSync(file, JSON.stringify(keys));
    const after = await startMcpServer({
      dataDir: dir,
      port,
      demo: true,
      config: sqliteConfig,
      logger,
    });
    servers.push(after);
    const rotated = JSON.parse(readFileSync(file, 'utf8'));
    expect(rotated.jwks.keys).toHaveLength(2);
    expect(rotated.jwks.keys[1].kid).toBe(decodeProtectedHeader(accessToken).kid);
    expect((await callTool(after.mcpUrl, accessToken)).structuredContent?.status).toBe('violated');
  });
});
