import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthMetadata } from '@modelcontextprotocol/server';
import type Provider from 'oidc-provider';

/** The authorization server metadata, as oidc-provider publishes it (RFC 8414 and OIDC fields). */
export type DiscoveryDocument = OAuthMetadata & Record<string, unknown>;

/**
 * Reads oidc-provider's own discovery document once at start-up, by asking the provider over a
 * loopback socket of its own (it has no other public way to render it). Everything the server
 * says about its authorization server (the routes it sends to oidc-provider, the protected
 * resource metadata) derives from this one document, so what is advertised is what answers.
 *
 * @example
 * const discovery = await readDiscoveryDocument(provider);
 * discovery.token_endpoint; // 'https://mcp.example.com/token'
 */
export async function readDiscoveryDocument(provider: Provider): Promise<DiscoveryDocument> {
  const probe = createServer(provider.callback());
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = probe.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`oidc-provider answered ${response.status} for discovery`);
    return (await response.json()) as DiscoveryDocument;
  } finally {
    probe.closeAllConnections();
    await new Promise((resolve) => probe.close(resolve));
  }
}

/**
 * The paths oidc-provider answers, from its discovery document: the path of every `…_endpoint`
 * and of `jwks_uri` (oidc-provider names them on the host it was asked on), with the paths below them (e.g. `/authorize/<uid>` resuming an
 * authorization, `/session/end/confirm`), and the two metadata documents.
 *
 * @example
 * const routes = authorizationServerPaths(discovery);
 * routes.matches('/token'); // true
 */
export function authorizationServerPaths(discovery: DiscoveryDocument): {
  paths: readonly string[];
  matches(path: string): boolean;
} {
  const paths = new Set([
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
  ]);
  for (const [key, value] of Object.entries(discovery)) {
    if (!(key.endsWith('_endpoint') || key === 'jwks_uri') || typeof value !== 'string') continue;
    if (!URL.canParse(value)) continue;
    paths.add(new URL(value).pathname);
  }
  const list = [...paths];
  return {
    paths: list,
    matches: (path) => list.some((p) => path === p || path.startsWith(`${p}/`)),
  };
}
