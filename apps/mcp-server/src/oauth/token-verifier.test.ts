import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicJwks } from './authorization-server';
import type { OAuthStore } from './oauth-store';
import { loadSigningKeys, type SigningKeys } from './signing-keys';
import { openSqliteOAuthStore } from './sqlite-oauth-store';
import { createTokenVerifier } from './token-verifier';

// Issue 20 (performance): verified tokens are reused, and still a revocation is honoured within
// grantCacheMs and an expired token is refused at its expiry.

const ISSUER = 'http://127.0.0.1:9';
const RESOURCE = 'http://127.0.0.1:9/mcp';
const dir = mkdtempSync(join(tmpdir(), 'token-verifier-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createTokenVerifier caches', () => {
  let store: OAuthStore;
  let keys: SigningKeys;
  let grants = 0;
  beforeAll(async () => {
    store = await openSqliteOAuthStore(join(dir, 'oauth.db'), join(dir, 'oauth-keys.json'));
    keys = await loadSigningKeys(store.keys, { rotationDays: 30, retainSeconds: 3600 });
  });
  afterAll(() => store?.close());

  /** A live grant and an access token of it, expiring in `seconds`. */
  const tokenOfNewGrant = async (seconds: number, audience = RESOURCE) => {
    grants += 1;
    const gid = `grant-${grants}`;
    await store.adapter('Grant').upsert(gid, { accountId: 'ada', clientId: 'c' } as never, 3600);
    const { 'dcg:createdAt': _created, ...jwk } = keys.jwks.keys[0]!;
    const token = await new SignJWT({ client_id: 'c', scope: 'marketplace:read', gid })
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject('ada')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(await importJWK(jwk, 'ES256'));
    return { gid, token };
  };
  const verifier = (grantCacheMs: number) =>
    createTokenVerifier({
      issuer: ISSUER,
      resource: RESOURCE,
      publicJwks: publicJwks(keys),
      store,
      grantCacheMs,
    });

  it('honours a revocation within grantCacheMs although the token stays verified', async () => {
    const check = verifier(300);
    const { gid, token } = await tokenOfNewGrant(3600);
    expect((await check.verifyAccessToken(token)).extra).toMatchObject({
      subject: 'ada',
      grantId: gid,
    });
    await store.adapter('Grant').destroy(gid);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await expect(check.verifyAccessToken(token)).rejects.toThrow(/revoked/);
  });

  it('refuses a remembered token once it expired', async () => {
    const check = verifier(60_000);
    // Expires at the next whole second or the one after: at least one second from now.
    const { token } = await tokenOfNewGrant(2);
    for (let i = 0; i < 3; i++) expect((await check.verifyAccessToken(token)).token).toBe(token);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expect(check.verifyAccessToken(token)).rejects.toThrow(/not valid/);
  });

  it('refuses a token of another audience every time', async () => {
    const check = verifier(60_000);
    const { token } = await tokenOfNewGrant(3600, 'http://elsewhere.example/mcp');
    for (let i = 0; i < 2; i++) {
      await expect(check.verifyAccessToken(token)).rejects.toThrow(/another resource/);
    }
  });
});
