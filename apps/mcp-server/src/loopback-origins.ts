import { localhostAllowedHostnames } from '@modelcontextprotocol/server';

/**
 * The origins of a loopback server under each of the SDK's loopback host names (`localhost`,
 * `127.0.0.1`, `[::1]`) on its port; undefined for a server that is not on loopback. Exact origins,
 * not the SDK's port-agnostic Origin check: another program on another local port is not us.
 *
 * @example
 * loopbackOrigins('http://127.0.0.1:3000'); // ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']
 */
export function loopbackOrigins(publicUrl: string): string[] | undefined {
  const self = new URL(publicUrl);
  const hostnames = localhostAllowedHostnames();
  if (!hostnames.includes(self.hostname)) return undefined;
  return hostnames.map(
    (hostname) => `${self.protocol}//${hostname}${self.port ? `:${self.port}` : ''}`,
  );
}
