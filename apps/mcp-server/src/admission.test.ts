import { createLogger } from '@dcg/http-kit';
import { atCapacity, temporaryDirs } from '@dcg/http-kit/testkit';
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
    const seen = await atCapacity(server.url, { inFlight: 2, queued: 2 }, () =>
      call(server.mcpUrl, 5, 'wait_for_gate'),
    );
    expect(started).toBe(2);
    expect(seen.refused).toEqual({
      status: 503,
      retryAfter: '5',
      contentType: 'application/problem+json',
      body: expect.objectContaining({ status: 503, code: 'OVERLOADED' }),
    });
    expect(new Set(seen.probes.statuses)).toEqual(new Set([200]));
    // Far below the wait of a queued request; generous for a loaded test machine.
    expect(seen.probes.slowestMs).toBeLessThan(500);
    expect(seen.metrics).toEqual({ inFlight: 2, queued: 2, refusedQueueFull: 1 });

    open();
    const answers = await Promise.all(held);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const answer of answers) expect(await answer.text()).toContain('opened');
    expect(started).toBe(4);
  });
});
