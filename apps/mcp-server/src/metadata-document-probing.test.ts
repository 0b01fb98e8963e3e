import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkce } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

const TIMEOUT_MS = 400;

/** A TCP port on loopback that counts connections and answers each as `behaviour` says. */
async function listener(behaviour: 'silent' | 'garbage'): Promise<{
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (behaviour === 'garbage') socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function closedPort(): Promise<number> {
  const probe = await listener('silent');
  await probe.close();
  return probe.port;
}

describe('mcp-server: no probing through Client ID Metadata Documents', () => {
  const dirs: string[] = [];
  let guarded: RunningMcpServer;
  let loopbackAllowed: RunningMcpServer;

  const start = async (allowLoopbackForTests: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-probing-'));
    dirs.push(dir);
    return startMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        oauth: { clientIdMetadataDocumentFetch: { timeoutMs: TIMEOUT_MS, allowLoopbackForTests } },
      },
      logger: createLogger('test', { level: 'silent' }),
    });
  };
  beforeAll(async () => {
    guarded = await start(false);
    loopbackAllowed = await start(true);
  });
  afterAll(async () => {
    await guarded?.close();
    await loopbackAllowed?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** GET /authorize with `clientId`; answers the status, the page and how long it took. */
  const authorize = async (server: RunningMcpServer, clientId: string) => {
    const started = performance.now();
    const response = await fetch(
      `${server.url}/authorize?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:33418/callback',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started };
  };

  it('never connects to a loopback address, named by IP or by a host name that resolves to it', async () => {
    const port = await listener('garbage');
    try {
      for (const host of [
        '127.0.0.1',
        'localhost',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        '[::127.0.0.1]',
        '[0:0:0:0:0:ffff:127.0.0.1]',
        '127.1',
        '2130706433',
      ]) {
        const answer = await authorize(guarded, `https://${host}:${port.port}/client.json`);
        expect(answer.status, host).toBe(400);
        expect(answer.text).toMatch(/invalid_client/);
      }
      expect(port.connections()).toBe(0);
    } finally {
      await port.close();
    }
  });

  it('answers a closed port, a silent port and a port that answers at once in the same time and words', async () => {
    const silent = await listener('silent');
    const garbage = await listener('garbage');
    try {
      const answers = [];
      for (const port of [await closedPort(), silent.port, garbage.port]) {
        answers.push(
          await authorize(loopbackAllowed, `https://127.0.0.1:${port}/doc-${port}.json`),
        );
      }
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
        expect(answer.ms).toBeLessThan(TIMEOUT_MS + 400);
        expect(answer.text).toBe(answers[0]!.text);
      }
      // The spread is the network's jitter, not the port's state.
      const times = answers.map((a) => a.ms);
      expect(Math.max(...times) - Math.min(...times)).toBeLessThan(250);
    } finally {
      await silent.close();
      await garbage.close();
    }
  });

  it('fetches a failing document once per /authorize, and reuses the refusal briefly', async () => {
    const garbage = await listener('garbage');
    try {
      const clientId = `https://127.0.0.1:${garbage.port}/once.json`;
      expect((await authorize(loopbackAllowed, clientId)).status).toBe(400);
      expect(garbage.connections()).toBe(1);
      const again = await authorize(loopbackAllowed, clientId);
      expect(again.status).toBe(400);
      expect(again.ms).toBeLessThan(TIMEOUT_MS);
      expect(garbage.connections()).toBe(1);
    } finally {
      await garbage.close();
    }
  });
});
