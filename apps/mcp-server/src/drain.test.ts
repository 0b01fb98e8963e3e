import { createLogger } from '@dcg/http-kit';
import { temporaryDirs } from '@dcg/http-kit/testkit';
import { type SpawnedApp, spawnApp } from '@dcg/testing-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backends, GOVERNANCE_KEY, startBackends } from './__fixtures__/backends.testkit';
import { type SlowLink, slowLink } from './__fixtures__/slow-link.testkit';
import { startMcpServer } from './server';

// Issue 21 item 6: SIGTERM lets the tool calls in flight finish (within server.shutdownTimeoutMs).

const dirs = temporaryDirs('mcp-server-drain-');
const DELAY_MS = 1_500;

/** One `tools/call` of search_marketplace over the 2025 lane (stateless: no initialize needed). */
async function slowCall(mcpUrl: string, id: number) {
  try {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'search_marketplace', arguments: { query: 'orders' } },
      }),
    });
    const text = await response.text();
    return {
      status: response.status,
      ok: text.includes('"result"') && !text.includes('isError":true'),
    };
  } catch (error) {
    return { status: 0, ok: false, error: (error as Error).message };
  }
}

/** mcp-server as its own process (development mode), with its MCP endpoint. */
async function spawnMcpServer(config: unknown): Promise<{ app: SpawnedApp; mcpUrl: string }> {
  const app = await spawnApp('mcp-server', { config, env: { NODE_ENV: 'development' } });
  return { app, mcpUrl: String(app.service.listening.mcp) };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('mcp-server stops gracefully', () => {
  let backends: Backends;
  let link: SlowLink;
  beforeAll(async () => {
    backends = await startBackends();
    link = await slowLink(backends.governance.url, DELAY_MS);
  });
  afterAll(async () => {
    await link?.close();
    await backends?.close();
    dirs.removeAll();
  });

  const configThrough = (server?: Record<string, number>) => ({
    oauth: { enabled: false },
    governance: { baseUrl: link.url, apiKey: { key: GOVERNANCE_KEY } },
    knowledgeGraph: { baseUrl: backends.kg.url },
    ...(server ? { server } : {}),
  });

  it('on SIGTERM, every slow tool call in flight finishes, then the process exits 0', async () => {
    const { app, mcpUrl } = await spawnMcpServer(configThrough());
    try {
      expect(await slowCall(mcpUrl, 0)).toEqual({ status: 200, ok: true });
      const before = link.requests;
      const calls = Array.from({ length: 10 }, (_, i) => slowCall(mcpUrl, i + 1));
      // The calls are in flight (each waits DELAY_MS for governance-api) when the stop begins.
      await until(() => link.requests >= before + 10);
      const stopped = performance.now();
      app.service.child.kill('SIGTERM');
      const results = await Promise.all(calls);
      expect(results).toEqual(Array.from({ length: 10 }, () => ({ status: 200, ok: true })));
      expect(await app.service.exited()).toBe(0);
      // It waited for the calls, not for the whole grace period (10 s by default).
      expect(performance.now() - stopped).toBeGreaterThan(DELAY_MS - 600);
      expect(performance.now() - stopped).toBeLessThan(8_000);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('cuts what is still running after server.shutdownTimeoutMs and exits', async () => {
    const { app, mcpUrl } = await spawnMcpServer(configThrough({ shutdownTimeoutMs: 300 }));
    try {
      const before = link.requests;
      const calls = Array.from({ length: 5 }, (_, i) => slowCall(mcpUrl, i + 1));
      await until(() => link.requests >= before + 5);
      const stopped = performance.now();
      app.service.child.kill('SIGTERM');
      expect(await app.service.exited()).toBe(0);
      expect(performance.now() - stopped).toBeLessThan(DELAY_MS);
      expect((await Promise.all(calls)).every((r) => !r.ok)).toBe(true);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('answers /ready 503 from the moment the stop begins, while a call is in flight', async () => {
    const server = await startMcpServer({
      dataDir: dirs.make(),
      config: configThrough(),
      logger: createLogger('test', { level: 'silent' }),
    });
    expect((await server.app.request('/ready')).status).toBe(200);
    const before = link.requests;
    const call = slowCall(server.mcpUrl, 1);
    await until(() => link.requests > before);
    const closing = server.close();
    const ready = await server.app.request('/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping', ready: false });
    expect(await call).toEqual({ status: 200, ok: true });
    await closing;
  }, 30_000);
});
