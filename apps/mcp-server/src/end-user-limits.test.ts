import { createLogger } from '@dcg/http-kit';
import { temporaryDirs } from '@dcg/http-kit/testkit';
import { type RunningKgApi, startKgApi } from '@dcg/kg-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { authorize } from './__fixtures__/oauth-client.testkit';
import { hashPassword } from './oauth/passwords';

// Issue 21 item 8: mcp-server calls kg-api with a key of its own and names the end user, so that
// kg-api limits each user apart: one user using up its rate leaves the other's calls alone.

const dirs = temporaryDirs('mcp-server-end-users-');
const KG_KEY = 'kg-key-of-mcp-server-0123456789';
const logger = createLogger('test', { level: 'silent' });

/** One `search_knowledge_graph` call with a token: the text of its answer and whether it failed. */
async function search(server: InProcessMcpServer, token: string) {
  const response = await server.fetch(server.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_knowledge_graph', arguments: { term: 'data' } },
    }),
  });
  const text = await response.text();
  expect(response.status).toBe(200);
  return { text, failed: text.includes('"isError":true') };
}

describe('kg-api limits the users of mcp-server apart', () => {
  let kg: RunningKgApi;
  let server: InProcessMcpServer;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    kg = await startKgApi({
      config: {
        auth: {
          apiKeys: [{ name: 'mcp-server', key: KG_KEY, role: 'reader', endUsers: true }],
        },
        rateLimit: { authenticated: { requestsPerSecond: 0.01, burst: 4 } },
      },
      dataDir: dirs.make(),
      demo: true,
      logger,
    });
    const users = [];
    for (const username of ['ann', 'bob']) {
      users.push({ username, passwordHash: await hashPassword(`${username}-password`) });
    }
    server = await inProcessMcpServer({
      dataDir: dirs.make(),
      config: {
        oauth: { users },
        knowledgeGraph: { baseUrl: kg.url, apiKey: { key: KG_KEY } },
      },
      logger,
    });
    for (const username of ['ann', 'bob']) {
      tokens[username] = (
        await authorize(server.mcpUrl, server, username, `${username}-password`)
      ).accessToken;
    }
  });
  afterAll(async () => {
    await server?.close();
    await kg?.close();
    dirs.removeAll();
  });

  it("one user's calls over the limit fail, the other user's still answer", async () => {
    let refused: { text: string; failed: boolean } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const answer = await search(server, tokens.ann!);
      if (answer.failed) refused = answer;
    }
    expect(refused?.text).toMatch(/429|Too Many Requests/);
    const other = await search(server, tokens.bob!);
    expect(other.failed, other.text).toBe(false);
  }, 60_000);
});
