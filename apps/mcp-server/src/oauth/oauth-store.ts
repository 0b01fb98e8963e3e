import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * Where the authorization server keeps clients, grants, codes, tokens, sessions and interactions:
 * the oidc-provider adapter of each model, plus what the resource server asks.
 *
 * @example
 * const store = openSqliteOAuthStore(join(dataDir, 'oauth.db'));
 * const provider = new Provider(issuer, { adapter: store.adapter });
 */
export interface OAuthStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The adapter factory oidc-provider calls once per model name. */
  adapter(model: string): Adapter;
  /** Whether a grant is still live (not revoked, not expired): tokens of a dead grant are refused. */
  grantAlive(grantId: string): Promise<boolean>;
  /**
   * Removes registered clients created before `createdBefore` (epoch seconds) that never got a
   * grant. Only dynamic registrations are stored: configured clients live in the configuration and
   * metadata-document clients in oidc-provider's cache.
   */
  removeUnusedClients(createdBefore: number): Promise<number>;
  /** Removes expired rows. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** A payload with its stored bookkeeping, as adapters return it. */
export type StoredPayload = AdapterPayload & { consumed?: number };

/** Seconds since the epoch. */
export function epoch(): number {
  return Math.floor(Date.now() / 1000);
}
