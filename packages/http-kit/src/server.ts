import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { clientOfAddress } from './client-address';
import { parseConfig } from './config';
import type { ServiceLifecycle } from './lifecycle';

/**
 * Limits of the HTTP server: how long a client may take to send a request, how many connections
 * it may hold, and how long a stop waits for in-flight requests. One schema for every app's
 * `server` configuration section; every key is optional and documented in the apps' READMEs.
 *
 * @example
 * HttpServerConfigSchema.parse({}).headersTimeoutMs; // 10000
 */
export const HttpServerConfigSchema = z
  .strictObject({
    /** Time to receive the request headers, counted from the first byte (Node `headersTimeout`). */
    headersTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    /** Time to receive the whole request, body included (Node `requestTimeout`); 0 = none. */
    requestTimeoutMs: z.number().int().min(0).max(3_600_000).default(60_000),
    /** How long an idle keep-alive connection stays open after a response. */
    keepAliveTimeoutMs: z.number().int().min(0).max(600_000).default(5_000),
    /** Open connections at most; further ones are refused (Node `maxConnections`). */
    maxConnections: z.number().int().min(1).max(1_000_000).default(1_024),
    /** Open connections per client address at most (IPv6: per /64); 0 = no cap (behind a proxy). */
    maxConnectionsPerClient: z.number().int().min(0).max(1_000_000).default(64),
    /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before they are cut. */
    shutdownTimeoutMs: z.number().int().min(0).max(600_000).default(10_000),
  })
  .refine((s) => s.requestTimeoutMs === 0 || s.headersTimeoutMs <= s.requestTimeoutMs, {
    message: 'headersTimeoutMs must not exceed requestTimeoutMs',
    path: ['headersTimeoutMs'],
  });
/** Validated server limits. */
export type HttpServerConfig = z.output<typeof HttpServerConfigSchema>;

/** A running HTTP server. */
export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops gracefully: begins the lifecycle's drain, stops accepting connections, closes idle
   * ones, lets in-flight requests finish (each answered with `Connection: close`) for at most
   * `shutdownTimeoutMs`, then cuts whatever is left.
   */
  close(): Promise<void>;
}

const REQUEST_TIMEOUT = 'ERR_HTTP_REQUEST_TIMEOUT';

/** A problem response written on the raw socket, for errors that happen before Hono sees a request. */
function rawProblem(status: number, reason: string, detail: string, head: boolean): string {
  const body = JSON.stringify({ type: 'about:blank', title: reason, status, detail });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/problem+json',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    // The answer to HEAD has the headers of the answer to GET, and no body (RFC 9110 §9.3.2).
    head ? '' : body,
  ].join('\r\n');
}

const isHead = (bytes: Buffer | undefined) => bytes?.toString('latin1', 0, 5) === 'HEAD ';

/**
 * Serves a fetch handler (a Hono app) on Node; port 0 picks a free port. Listens on 127.0.0.1
 * unless told otherwise, and applies the `limits` (defaults of {@link HttpServerConfigSchema}):
 * a client that sends nothing, or sends its headers or body too slowly, is disconnected; the
 * connections are capped in all and per client.
 *
 * @example
 * const server = await startHttpServer(app, { port: 0, limits: { shutdownTimeoutMs: 5000 } });
 * await fetch(`${server.url}/health`);
 * await server.close();
 */
export function startHttpServer(
  app: { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> },
  options: {
    port?: number;
    host?: string;
    limits?: z.input<typeof HttpServerConfigSchema> | undefined;
    lifecycle?: ServiceLifecycle | undefined;
  } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const lifecycle = options.lifecycle;
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  // Open sockets and how many of their requests are unanswered (idle ones close first on a stop).
  const sockets = new Map<Socket, number>();
  const perClient = new Map<string, number>();

  return new Promise((resolve, reject) => {
    const limits = parseConfig(HttpServerConfigSchema, options.limits ?? {}, 'server limits');
    const server = serve(
      {
        fetch: app.fetch as (request: Request) => Promise<Response>,
        port: options.port ?? 0,
        hostname: host,
        serverOptions: {
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          keepAliveTimeout: limits.keepAliveTimeoutMs,
          // Node checks the two timeouts above this often (30 s by default).
          connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
        },
      },
      (info: AddressInfo) => {
        const shownHost = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${info.port}`,
          port: info.port,
          close: () => stop(),
        });
      },
    ) as Server;
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.maxConnections = limits.maxConnections;

    server.prependListener('connection', (socket: Socket) => {
      sockets.set(socket, 0);
      socket.once('close', () => sockets.delete(socket));
      // Node's headersTimeout counts from the first byte: a client that sends nothing at all is
      // disconnected by this idle timeout instead (lifted once its request headers are in).
      socket.setTimeout(limits.headersTimeoutMs);
      if (limits.maxConnectionsPerClient === 0) return;
      const client = clientOfAddress(socket.remoteAddress);
      const open = (perClient.get(client) ?? 0) + 1;
      perClient.set(client, open);
      socket.once('close', () => {
        const left = (perClient.get(client) ?? 1) - 1;
        if (left <= 0) perClient.delete(client);
        else perClient.set(client, left);
      });
      if (open > limits.maxConnectionsPerClient) socket.destroy();
    });

    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      socket.setTimeout(0);
      sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        const pending = (sockets.get(socket) ?? 1) - 1;
        if (sockets.has(socket)) sockets.set(socket, pending);
        // A response that had begun before the stop leaves a keep-alive connection behind.
        if (draining && pending === 0) setImmediate(() => server.closeIdleConnections());
      });
      // During a stop, requests that still arrive on open connections are answered, then the
      // connection closes.
      if (draining) res.setHeader('Connection', 'close');
    });

    // Requests Node refuses before Hono sees them (slow, malformed or oversized headers) are
    // answered as problem details too.
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
        socket.destroy();
        return;
      }
      // A HEAD request is answered without a body. Its method is seen in the bytes the parser
      // failed on when the request began there (headers sent at once); a 'data' listener would
      // take the socket off Node's native HTTP parsing.
      const head = isHead((error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket);
      const response =
        error.code === REQUEST_TIMEOUT
          ? rawProblem(408, 'Request Timeout', 'The request was not received in time', head)
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? rawProblem(
                431,
                'Request Header Fields Too Large',
                'The request headers are too large',
                head,
              )
            : rawProblem(400, 'Bad Request', 'The request is not valid HTTP/1.1', head);
      socket.end(response);
    });
    server.once('error', reject);

    let stopping: Promise<void> | undefined;
    function stop(): Promise<void> {
      stopping ??= new Promise<void>((done) => {
        draining = true;
        lifecycle?.drain();
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        // Connections between two requests close now (Node's idea of idle), and so do those that
        // never sent a byte; one whose request is still arriving gets its answer first.
        server.closeIdleConnections();
        for (const [socket, pending] of sockets) {
          if (pending === 0 && socket.bytesRead === 0) socket.destroy();
        }
        const deadline = setTimeout(() => server.closeAllConnections(), limits.shutdownTimeoutMs);
        // Stops accepting; Node closes the idle connections, the busy ones close after their
        // response (Connection: close), and the callback runs when none is left.
        server.close(() => {
          clearTimeout(deadline);
          done();
        });
      });
      return stopping;
    }
  });
}
