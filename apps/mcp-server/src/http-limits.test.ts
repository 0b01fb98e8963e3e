import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { ConfigError, createLogger } from '@dcg/http-kit';
import {
  msUntilIdleSocketClosed,
  parsePrometheusText,
  requestsTotal,
  startFailure,
  temporaryDirs,
} from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMcpServer, startMcpServer } from './server';

// Issue 21 items 7, 11, 13 and 14 (headers), issue 20 §7: the limits, headers and production
// rules the other apps have, as mcp-server answers them on a real socket.

const dirs = temporaryDirs('mcp-server-limits-');
afterAll(() => dirs.removeAll());
const METRICS_KEY = 'mcp-metrics-key-0123456789';

/** A POST through a pool of `sockets` connections (as a client with a bounded pool sends them). */
function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('mcp-server limits, headers and OAuth endpoints', () => {
  let server: RunningMcpServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startMcpServer({
      dataDir: dirs.make(),
      demo: true,
      config: {
        server: { headersTimeoutMs: 1_000, maxConnectionsPerClient: 64 },
        metricsKeys: [{ name: 'prom', key: METRICS_KEY }],
      },
      logger: createLogger('test', { level: 'info', write: (line) => lines.push(line) }),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends nosniff, the CSP and a request id on the OAuth endpoints, and counts their errors by code', async () => {
    const discovery = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(discovery.status).toBe(200);
    const refused = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope&client_id=nobody',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const authorize = await fetch(`${server.url}/authorize?client_id=nobody`, {
      redirect: 'manual',
    });
    for (const response of [discovery, refused, authorize]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
    }
    const { error } = (await refused.json()) as { error: string };
    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_KEY}` },
    });
    const { samples } = parsePrometheusText(await metrics.text());
    expect(
      requestsTotal(samples, { method: 'POST', route: '/token', status: String(refused.status) }),
    ).toBe(1);
    expect(
      requestsTotal(samples, {
        method: 'GET',
        route: '/authorize',
        status: String(authorize.status),
      }),
    ).toBe(1);
    const oauthErrors = samples.filter((s) => s.name === 'mcp_oauth_errors_total');
    expect(oauthErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ labels: expect.objectContaining({ code: error }), value: 1 }),
      ]),
    );
    const logged = lines.map((line) => JSON.parse(line)).filter((l) => l.msg === 'OAuth error');
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: error,
          requestId: refused.headers.get('x-request-id'),
        }),
      ]),
    );
    // The request log has the OAuth endpoints too.
    expect(lines.some((line) => line.includes('"path":"/token"'))).toBe(true);
  });

  it('answers 400 parallel requests with forged tokens with 429 once the address used its burst', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          post(
            agent,
            server.mcpUrl,
            {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer forged.${i}.token`,
            },
            '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          ),
        ),
      );
      const count = (status: number) => statuses.filter((s) => s === status).length;
      expect(count(401) + count(429)).toBe(400);
      // The anonymous burst (100) at most gets through to the token check; the rest is refused.
      expect(count(429)).toBeGreaterThanOrEqual(300);
    } finally {
      agent.destroy();
    }
  });

  it('caps the connections of one address and disconnects one that sends nothing', async () => {
    const sockets: Socket[] = [];
    const closed = { count: 0 };
    for (let i = 0; i < 300; i++) {
      const socket = connect(server.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.on('close', () => closed.count++);
      sockets.push(socket);
    }
    try {
      // Everything over the cap of 64 is closed at once; the idle ones by headersTimeoutMs.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(closed.count).toBeGreaterThanOrEqual(300 - 64);
      expect(await msUntilIdleSocketClosed(server.url)).toBeLessThan(3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      while (closed.count < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
});

describe('mcp-server in production', () => {
  const logger = createLogger('test', { level: 'silent' });

  it.each(['production', 'Production', 'prod'])(
    'refuses to start with OAuth disabled (NODE_ENV=%s)',
    async (value) => {
      const failure = await startFailure(
        startMcpServer({
          dataDir: dirs.make(),
          config: { oauth: { enabled: false } },
          env: { NODE_ENV: value },
          logger,
        }),
      );
      expect(ConfigError.isInstance(failure)).toBe(true);
      expect((failure as ConfigError).problems[0]?.key).toBe('oauth.enabled');
      expect((failure as ConfigError).message).toMatch(/behindAuthorizationLayer/);
    },
  );

  it('starts with OAuth disabled behind another authorization layer, and says so loudly', async () => {
    const lines: string[] = [];
    const server = await startMcpServer({
      dataDir: dirs.make(),
      config: { oauth: { enabled: false, behindAuthorizationLayer: true } },
      env: { NODE_ENV: 'production' },
      logger: createLogger('test', { level: 'warn', write: (line) => lines.push(line) }),
    });
    await server.close();
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(/^OAUTH IS DISABLED/),
        }),
      ]),
    );
  });

  it('creates, prints and accepts no demo user with DCG_DEMO on', async () => {
    const lines: string[] = [];
    const server = await startMcpServer({
      dataDir: dirs.make(),
      demo: true,
      env: { NODE_ENV: 'Production' },
      logger: createLogger('test', { level: 'warn', write: (line) => lines.push(line) }),
    });
    try {
      expect(server.demoUser).toBeUndefined();
      expect(lines.join('\n')).toMatch(/no demo user is created or accepted/);
    } finally {
      await server.close();
    }
  });
});
