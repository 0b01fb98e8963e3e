import { createServer, Socket } from 'node:net';
import { TEST_DATABASE_URL } from './test-database-url';

/** A way to the test PostgreSQL that a test can cut, to see what an outage does. */
export interface PostgresOutage {
  /** A connection string like `TEST_DATABASE_URL` that goes through the proxy. */
  readonly url: string;
  /** Cuts every connection and refuses new ones from now on (connection refused). */
  cut(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of the test PostgreSQL: connect through `url`, then `cut()`
 * the way, and the database is gone for whoever used it (a real refused connection, not a mock).
 *
 * @example
 * const outage = await postgresOutage();
 * const pool = new pg.Pool({ connectionString: outage.url });
 * await outage.cut(); // every query of `pool` now fails
 */
export async function postgresOutage(): Promise<PostgresOutage> {
  const target = new URL(TEST_DATABASE_URL);
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = new Socket();
    sockets.add(inbound);
    sockets.add(outbound);
    outbound.connect(Number(target.port || 5432), target.hostname);
    inbound.pipe(outbound).pipe(inbound);
    const forget = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', forget).on('close', forget);
    outbound.on('error', forget).on('close', forget);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.href,
    cut: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
