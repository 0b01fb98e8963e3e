import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { KeyStorage } from './signing-keys';

/**
 * Where the authorization server keeps clients, grants, codes, tokens, sessions and interactions:
 * the oidc-provider adapter of each model, plus what the resource server asks.
 *
 * Codes and tokens are stored under the SHA-256 of their value (see `credential-hashing.ts`), and
 * `consume` is one conditional statement: of concurrent uses of one code or refresh token exactly
 * one wins; the others throw `invalid_grant` and revoke the grant (a reuse, OAuth 2.1 §4.1.3).
 *
 * @example
 * const store = await openSqliteOAuthStore(join(dataDir, 'oauth.db'), join(dataDir, 'oauth-keys.json'));
 * const provider = new Provider(issuer, { adapter: store.adapter });
 */
export interface OAuthStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The signing keys of the authorization server. */
  readonly keys: KeyStorage;
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
  /**
   * Records `id` of `kind` until `expiresAt` (epoch seconds) and answers true, in one atomic
   * statement; false when a live record of it exists already (the caller lost: a replay). Shared by
   * every instance on the store, e.g. the `jti` of DPoP proofs.
   */
  claimOnce(kind: string, id: string, expiresAt: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A payload with its stored bookkeeping, as adapters return it. */
export type StoredPayload = AdapterPayload & { consumed?: number };

/** Seconds since the epoch. */
export function epoch(): number {
  return Math.floor(Date.now() / 1000);
}
