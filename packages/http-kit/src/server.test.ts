import { connect, type Socket } from 'node:net';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandling } from './error-handling';
import { healthRoutes } from './health';
import { ServiceLifecycle } from './lifecycle';
import { type RunningServer, startHttpServer } from './server';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function slowApp(lifecycle?: ServiceLifecycle) {
  const app = new Hono();
  installErrorHandling(app);
  app.get('/slow', async (c) => {
    await new Promise((r) => setTimeout(r, Number(c.req.query('ms') ?? 500)));
    return c.text('finished');
  });
  app.post('/echo', async (c) => c.text(await c.req.text()));
  app.route('/', healthRoutes({ ready: () => ({ ready: true }), lifecycle }));
  return app;
}

async function start(...args: Parameters<typeof startHttpServer>) {
  const server = await startHttpServer(...args);
  servers.push(server);
  return server;
}

/** A raw TCP client: what it receives, and when the server closed it. */
function rawClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => {
    const started = performance.now();
    socket.once('close', () => resolve(performance.now() - started));
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, received: () => received };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startHttpServer: graceful stop', () => {
  it('lets an in-flight request finish, closes idle connections at once and accepts no new one', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = await start(slowApp(lifecycle), { port: 0, lifecycle });
    // A keep-alive connection that is idle when the stop begins, and one that is busy.
    const idle = rawClient(server.port);
    await idle.connected;
    const busy = rawClient(server.port);
    await busy.connected;
    busy.socket.write('GET /slow?ms=600 HTTP/1.1\r\nHost: x\r\n\r\n');
    await pause(100);
    const closing = server.close();
    expect(lifecycle.draining).toBe(true);
    const idleClosedAfter = await idle.closed;
    expect(idleClosedAfter).toBeLessThan(400);
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1.1 200 OK/);
    expect(busy.received()).toMatch(/connection: close/i);
    expect(busy.received()).toMatch(/finished$/);
    await closing;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('answers /ready 503 to a request that arrives during the stop', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = await start(slowApp(lifecycle), { port: 0, lifecycle });
    const client = rawClient(server.port);
    await client.connected;
    client.socket.write('GET /ready HTTP/1.1\r\nHost: x\r\n');
    await pause(50);
    const closing = server.close();
    client.socket.write('\r\n');
    await client.closed;
    await closing;
    expect(client.received()).toMatch(/^HTTP\/1.1 503 Service Unavailable/);
    expect(client.received()).toMatch(/connection: close/i);
    expect(client.received()).toMatch(/"status":"stopping"/);
  });

  it('cuts what is still running at the deadline', async () => {
    const server = await start(slowApp(), { port: 0, limits: { shutdownTimeoutMs: 300 } });
    const stuck = fetch(`${server.url}/slow?ms=60000`).then(
      (r) => r.status,
      () => 'cut',
    );
    await pause(100);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await stuck).toBe('cut');
  });
});

describe('startHttpServer: limits', () => {
  it('disconnects a client that sends nothing after headersTimeoutMs', async () => {
    const server = await start(slowApp(), { port: 0, limits: { headersTimeoutMs: 300 } });
    const silent = rawClient(server.port);
    const after = await silent.closed;
    expect(after).toBeGreaterThanOrEqual(250);
    expect(after).toBeLessThan(2_500);
  });

  it('answers 408 to headers sent too slowly', async () => {
    const server = await start(slowApp(), {
      port: 0,
      limits: { headersTimeoutMs: 500, requestTimeoutMs: 5000 },
    });
    const slow = rawClient(server.port);
    await slow.connected;
    const trickle = setInterval(() => slow.socket.write('X-A: b\r\n'), 100);
    slow.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const after = await slow.closed;
    clearInterval(trickle);
    expect(after).toBeLessThan(3_000);
    expect(slow.received()).toMatch(/^HTTP\/1.1 408 Request Timeout/);
    expect(slow.received()).toMatch(/application\/problem\+json/);
  });

  it('answers 431 to oversized headers, with no body to a HEAD request', async () => {
    const server = await start(slowApp(), { port: 0 });
    const answer = async (method: string) => {
      const client = rawClient(server.port);
      await client.connected;
      client.socket.write(
        `${method} /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
      );
      await client.closed;
      return client.received();
    };
    const get = await answer('GET');
    expect(get).toMatch(/^HTTP\/1.1 431 Request Header Fields Too Large/);
    expect(get).toMatch(/\r\n\r\n\{"type":"about:blank"/);
    const head = await answer('HEAD');
    expect(head).toMatch(/^HTTP\/1.1 431 Request Header Fields Too Large/);
    expect(head).toMatch(/Content-Length: \d+\r\n/);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    // After a HEAD on the same connection, a GET refused the same way gets its body.
    const client = rawClient(server.port);
    await client.connected;
    client.socket.write('HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await pause(200);
    client.socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    await client.closed;
    expect(client.received()).toMatch(
      /431 Request Header Fields Too Large[\s\S]*\{"type":"about:blank"/,
    );
  });

  it('answers 408 to a body sent too slowly', async () => {
    const server = await start(slowApp(), {
      port: 0,
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 800 },
    });
    const slow = rawClient(server.port);
    await slow.connected;
    slow.socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const trickle = setInterval(() => slow.socket.write('a'), 100);
    const after = await slow.closed;
    clearInterval(trickle);
    expect(after).toBeLessThan(3_500);
    expect(slow.received()).toMatch(/^HTTP\/1.1 408 Request Timeout/);
  });

  it('keeps a slow handler alive: the idle timeout only guards the headers', async () => {
    const server = await start(slowApp(), { port: 0, limits: { headersTimeoutMs: 200 } });
    const response = await fetch(`${server.url}/slow?ms=700`);
    expect(await response.text()).toBe('finished');
  });

  it('caps the connections of one client, and in all', async () => {
    const perClient = await start(slowApp(), { port: 0, limits: { maxConnectionsPerClient: 3 } });
    const held: ReturnType<typeof rawClient>[] = [];
    for (let i = 0; i < 3; i++) {
      const client = rawClient(perClient.port);
      await client.connected;
      held.push(client);
    }
    const extra = rawClient(perClient.port);
    expect(await extra.closed).toBeLessThan(1_000);
    // Once one closes, the client may connect again.
    held[0]?.socket.destroy();
    await held[0]?.closed;
    const again = await fetch(`${perClient.url}/health`);
    expect(again.status).toBe(200);
    for (const client of held) client.socket.destroy();

    const total = await start(slowApp(), {
      port: 0,
      limits: { maxConnections: 2, maxConnectionsPerClient: 0 },
    });
    const sockets: Socket[] = [];
    for (let i = 0; i < 2; i++) {
      const client = rawClient(total.port);
      await client.connected;
      sockets.push(client.socket);
    }
    const refused = rawClient(total.port);
    expect(await refused.closed).toBeLessThan(1_000);
    for (const socket of sockets) socket.destroy();
  });

  it('refuses limits that cannot work together', async () => {
    await expect(
      startHttpServer(slowApp(), {
        port: 0,
        limits: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 },
      }),
    ).rejects.toThrow(/headersTimeoutMs: headersTimeoutMs must not exceed requestTimeoutMs/);
  });
});
