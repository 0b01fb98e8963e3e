import { createHash } from 'node:crypto';
import type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { OAuthStore } from './oauth-store';

/** Defaults of the verifier's caches (see {@link createTokenVerifier}). */
export const TOKEN_CACHE_DEFAULTS = {
  /** How long a "grant is live" answer is reused, in ms: the bound on honouring a revocation. */
  grantCacheMs: 1_000,
  /** How long a verified signature is reused, in ms (never past the token's `exp`). */
  verifiedTokenCacheMs: 60_000,
  /** Verified tokens remembered at most (the least recently used are forgotten first). */
  verifiedTokens: 10_000,
} as const;

/**
 * Verifies the access tokens of this server's own authorization server: an ES256 JWT signed by
 * one of its keys (old keys keep verifying after a rotation), issued by `issuer`, for the audience
 * `resource` (RFC 8707), not expired, whose grant is still live (revoking a refresh token or
 * reusing a rotated one ends the grant, and with it every access token of the grant).
 *
 * Two bounded caches keep the check cheap when one token comes with every request: a verified
 * token (its signature, issuer, audience and claims) is remembered under the SHA-256 of its
 * value for `verifiedTokenCacheMs` (60 s) and never past its `exp`; whether its grant is live is
 * asked again once `grantCacheMs` (1 s) passed. So a revocation (or a detected reuse) is
 * honoured within `grantCacheMs` on this instance, as without the token cache, and an expired
 * token is refused at its expiry.
 *
 * @example
 * const verifier = createTokenVerifier({ issuer, resource, publicJwks, store });
 */
export function createTokenVerifier(options: {
  issuer: string;
  resource: string;
  publicJwks: { keys: JWK[] };
  store: OAuthStore;
  /** How long a "grant is live" answer is reused, in ms. Default 1 000. */
  grantCacheMs?: number;
  /** How long a verified token is reused, in ms (never past its `exp`); 0 = not at all. Default 60 000. */
  verifiedTokenCacheMs?: number;
  /** Verified tokens remembered at most. Default 10 000. */
  verifiedTokens?: number;
}): OAuthTokenVerifier {
  const keySet = createLocalJWKSet(options.publicJwks);
  const cacheMs = options.grantCacheMs ?? TOKEN_CACHE_DEFAULTS.grantCacheMs;
  const tokenCacheMs = options.verifiedTokenCacheMs ?? TOKEN_CACHE_DEFAULTS.verifiedTokenCacheMs;
  const liveGrants = new Map<string, number>();
  const verified = new LRUCache<string, { payload: Record<string, unknown>; until: number }>({
    max: options.verifiedTokens ?? TOKEN_CACHE_DEFAULTS.verifiedTokens,
  });
  const invalid = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);
  const verify = async (token: string): Promise<Record<string, unknown>> => {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: options.issuer,
        algorithms: ['ES256'],
        typ: 'at+jwt',
      }));
    } catch (error) {
      throw invalid(`The access token is not valid: ${(error as Error).message}`);
    }
    const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audience.includes(options.resource)) {
      throw invalid(`The access token was issued for another resource, not ${options.resource}`);
    }
    return payload;
  };
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const now = Date.now();
      // Keyed by the token's hash: the cache holds no usable credential.
      const key = tokenCacheMs > 0 ? createHash('sha256').update(token).digest('base64url') : '';
      const hit = tokenCacheMs > 0 ? verified.get(key) : undefined;
      let payload: Record<string, unknown>;
      if (hit && hit.until > now) {
        payload = hit.payload;
      } else {
        payload = await verify(token);
        if (tokenCacheMs > 0) {
          // jose refuses a token past `exp`; the cache forgets it at `exp` (to the millisecond).
          const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : now;
          const until = Math.min(now + tokenCacheMs, expiresAt);
          if (until > now) verified.set(key, { payload, until });
        }
      }
      const grantId = payload.gid;
      if (typeof grantId !== 'string') throw invalid('The access token names no grant');
      if ((liveGrants.get(grantId) ?? 0) < now) {
        if (!(await options.store.grantAlive(grantId))) {
          liveGrants.delete(grantId);
          throw invalid('The access token was revoked');
        }
        if (liveGrants.size > 10_000) liveGrants.clear();
        liveGrants.set(grantId, now + cacheMs);
      }
      return {
        token,
        clientId: String(payload.client_id ?? ''),
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
        resource: new URL(options.resource),
        // A DPoP-bound token (RFC 9449 §6): the gate asks for a proof made with this key.
        extra: {
          subject: payload.sub,
          grantId,
          ...(typeof (payload.cnf as { jkt?: unknown } | undefined)?.jkt === 'string'
            ? { jkt: (payload.cnf as { jkt: string }).jkt }
            : {}),
        },
      };
    },
  };
}
