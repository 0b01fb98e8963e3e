import { createServer, type Server } from 'node:net';

/**
 * Asks the kernel for `count` distinct free TCP ports on 127.0.0.1. The ports are released before
 * returning, so another process may take one in between; callers retry on a bind failure.
 *
 * @example
 * const [sqlPort, httpPort] = await freeLoopbackPorts(2);
 */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    // Hold every socket open until all are bound so the kernel cannot hand out the same port twice.
    for (let index = 0; index < count; index += 1) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            if (address && typeof address === 'object') resolve(address.port);
            else reject(new Error('no port assigned'));
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }
}
