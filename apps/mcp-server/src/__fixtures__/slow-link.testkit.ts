import { connect, createServer, type Socket } from 'node:net';

/** A TCP relay to a real backend that holds each answer back, like a slow network. */
export interface SlowLink {
  /** `http://127.0.0.1:<port>`: the backend's URL through the relay. */
  readonly url: string;
  /** HTTP requests relayed so far (request lines seen). */
  readonly requests: number;
  close(): Promise<void>;
}

/**
 * Relays TCP connections to `target` (an http URL on loopback) and delays every chunk the backend
 * sends back by `delayMs`, so that calls through it take at least that long.
 *
 * @example
 * const link = await slowLink(governance.url, 1500);
 * // configure mcp-server with governance.baseUrl = link.url
 */
export async function slowLink(target: string, delayMs: number): Promise<SlowLink> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      requests += chunk.toString('latin1').match(/^[A-Z]+ \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
    });
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, delayMs);
    });
    upstream.on('end', () => setTimeout(() => client.end(), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
