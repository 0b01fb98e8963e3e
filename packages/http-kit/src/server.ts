import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A running HTTP server. */
export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves a fetch handler (a Hono app) on Node; port 0 picks a free port. Listens on 127.0.0.1 unless told otherwise.
 *
 * @example
 * const server = await startHttpServer(app, { port: 0 });
 * await fetch(`${server.url}/health`);
 * await server.close();
 */
export function startHttpServer(
  app: { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> },
  options: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch as (request: Request) => Promise<Response>,
        port: options.port ?? 0,
        hostname: host,
      },
      (info: AddressInfo) => {
        const shownHost = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              // Keep-alive connections would hold close() open; end them.
              (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close(() => done());
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
