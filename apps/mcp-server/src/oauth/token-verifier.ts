import type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import type { OAuthStore } from './oauth-store';

/**
 * Verifies the access tokens of this server's own authorization server: an ES256 JWT signed by
 * one of its keys (old keys keep verifying after a rotation), issued by `issuer`, for the audience
 * `resource` (RFC 8707), not expired, whose grant is still live (revoking a refresh token or
 * reusing a rotated one ends the grant, and with it every access token of the grant).
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
}): OAuthTokenVerifier {
  const keySet = createLocalJWKSet(options.publicJwks);
  const cacheMs = options.grantCacheMs ?? 1_000;
  const liveGrants = new Map<string, number>();
  const invalid = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
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
      const grantId = payload.gid;
      if (typeof grantId !== 'string') throw invalid('The access token names no grant');
      const now = Date.now();
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
