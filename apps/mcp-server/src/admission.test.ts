import { createLogger } from '@dcg/http-kit';
import { probeLatency, temporaryDirs } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningMcpServer, startMcpServer } from './server';

// Issue 21 item 15: the probes answer at once while admission control holds the server at
// capacity; beyond its line a request gets 503 with Retry-After.

const dirs = temporaryDirs('mcp-server-admission-');
afterAll(() => dirs.removeAll());

/** A `tools/call` over the 2025 lane (stateless: no initialize needed). */
function call(mcpUrl: string, id: number, name: string) {
  return fetch(mcpUrl, {
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
      params: { name, arguments: {} },
    }),
  });
}

describe('mcp-server admission control', () => {
  let server: RunningMcpServer;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  beforeAll(async () => {
    server = await startMcpServer({
      dataDir: dirs.make(),
      config: {
        oauth: { enabled: false },
        rateLimit: { enabled: false },
        admission: { maxInFlight: 2, maxQueued: 2, retryAfterSeconds: 5 },
      },
      logger: createLogger('admission-test', { level: 'silent' }),
      extendServer: (mcp) =>
        mcp.registerTool(
          'wait_for_gate',
          { description: 'Answers once the test opens the gate', inputSchema: z.object({}) },
          async () => {
            started += 1;
            await gate;
            return { content: [{ type: 'text', text: 'opened' }] };
          },
        ),
    });
  });
  afterAll(async () => {
    open();
    await server?.close();
  });

  it('answers 503 with Retry-After beyond the line, and /health, /ready and /metrics meanwhile', async () => {
    const held = [1, 2, 3, 4].map((id) => call(server.mcpUrl, id, 'wait_for_gate'));
    for (let i = 0; i < 50 && started < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(started).toBe(2);
    const refused = await call(server.mcpUrl, 5, 'wait_for_gate');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ status: 503, code: 'OVERLOADED' });

    for (const path of ['/health', '/ready']) {
      const { statuses, max } = await probeLatency(`${server.url}${path}`, 10);
      expect(statuses.every((s) => s === 200)).toBe(true);
      // Far below the wait of a queued request; generous for a loaded test machine.
      expect(max).toBeLessThan(500);
    }
    // A scrape from loopback outside production needs no key.
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/^http_admission_in_flight\{[^}]*\} 2$/m);
    expect(text).toMatch(/^http_admission_queued\{[^}]*\} 2$/m);
    expect(text).toMatch(/^http_admission_refused_total\{[^}]*reason="queue-full"[^}]*\} 1$/m);

    open();
    const answers = await Promise.all(held);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const answer of answers) expect(await answer.text()).toContain('opened');
    expect(started).toBe(4);
  });
});
