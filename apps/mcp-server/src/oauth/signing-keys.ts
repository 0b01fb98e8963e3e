import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The persisted key material of the authorization server. */
export interface SigningKeys {
  /** Private JWKs, newest (the signing one) first; older ones still verify live tokens. */
  readonly jwks: { keys: (JWK & { kid: string; 'dcg:createdAt': number })[] };
  /** Secrets that sign oidc-provider's cookies, newest first. */
  readonly cookieKeys: string[];
}

/**
 * Loads the keys from `file` (JSON, mode 0600), or makes them. When the newest signing key is
 * older than `rotationDays`, a new one is put first and the old ones are kept for
 * `retainSeconds` (the longest life of a token it signed), so rotating never invalidates a live
 * token.
 *
 * @example
 * const keys = await loadSigningKeys(join(dataDir, 'oauth-keys.json'), { rotationDays: 30, retainSeconds: 3600 });
 */
export async function loadSigningKeys(
  file: string,
  options: { rotationDays: number; retainSeconds: number },
): Promise<SigningKeys> {
  const now = Math.floor(Date.now() / 1000);
  let keys: SigningKeys = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as SigningKeys)
    : { jwks: { keys: [] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  const newest = keys.jwks.keys[0];
  if (!newest || now - newest['dcg:createdAt'] > options.rotationDays * 86_400) {
    const fresh = await newKey(now);
    const retained = keys.jwks.keys.filter(
      (key, index) =>
        index === 0 ||
        now - key['dcg:createdAt'] <= options.rotationDays * 86_400 + options.retainSeconds,
    );
    keys = { ...keys, jwks: { keys: [fresh, ...retained] } };
    const temporary = `${file}.tmp`;
    writeFileSync(temporary, JSON.stringify(keys, null, 2), { mode: 0o600 });
    renameSync(temporary, file);
  }
  return keys;
}

async function newKey(now: number): Promise<JWK & { kid: string; 'dcg:createdAt': number }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    ...jwk,
    alg: 'ES256',
    use: 'sig',
    kid: randomBytes(8).toString('base64url'),
    'dcg:createdAt': now,
  };
}
