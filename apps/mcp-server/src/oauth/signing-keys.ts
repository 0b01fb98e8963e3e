import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * Where the signing keys live: compare-and-set, so instances that share a store agree on one set
 * (the first to rotate wins; the others read its keys).
 */
export interface KeyStorage {
  read(): Promise<SigningKeys | undefined>;
  /** Writes `next` only if the stored keys are still `previous`; false when another won. */
  replace(previous: SigningKeys | undefined, next: SigningKeys): Promise<boolean>;
}

/** The persisted key material of the authorization server. */
export interface SigningKeys {
  /** Private JWKs, newest (the signing one) first; older ones still verify live tokens. */
  readonly jwks: { keys: (JWK & { kid: string; 'dcg:createdAt': number })[] };
  /** Secrets that sign oidc-provider's cookies and the CSRF tokens, newest first. */
  readonly cookieKeys: string[];
}

/**
 * Loads the keys from their storage, or makes them. When the newest signing key is older than
 * `rotationDays`, a new one is put first and the old ones are kept for `retainSeconds` (the
 * longest life of a token they signed), so rotating never invalidates a live token. Instances
 * sharing a storage race with compare-and-set: one set wins, every instance uses it.
 *
 * @example
 * const keys = await loadSigningKeys(store.keys, { rotationDays: 30, retainSeconds: 3600 });
 */
export async function loadSigningKeys(
  storage: KeyStorage,
  options: { rotationDays: number; retainSeconds: number; now?: number },
): Promise<SigningKeys> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const current = await storage.read();
    const newest = current?.jwks.keys[0];
    if (current && newest && now - newest['dcg:createdAt'] <= options.rotationDays * 86_400)
      return current;
    const fresh = await newKey(now);
    // A key signs until the next one is made; its tokens live `retainSeconds` at most after that.
    // The newest key is superseded now; key i was superseded when key i - 1 was made.
    const previous = current?.jwks.keys ?? [];
    const retained = previous.filter(
      (_key, index) =>
        index === 0 || now - previous[index - 1]!['dcg:createdAt'] <= options.retainSeconds,
    );
    const next: SigningKeys = {
      jwks: { keys: [fresh, ...retained] },
      cookieKeys: current?.cookieKeys ?? [randomBytes(32).toString('base64url')],
    };
    if (await storage.replace(current, next)) return next;
  }
  throw new Error('the signing keys could not be stored (another instance keeps replacing them)');
}

/**
 * Keys in a JSON file (mode 0600), for one instance with its data folder.
 *
 * @example
 * const storage = fileKeyStorage(join(dataDir, 'oauth-keys.json'));
 */
export function fileKeyStorage(file: string): KeyStorage {
  return {
    async read() {
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SigningKeys) : undefined;
    },
    async replace(previous, next) {
      const now = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      if ((now === undefined) !== (previous === undefined)) return false;
      if (now !== undefined && JSON.parse(now).jwks.keys[0]?.kid !== previous?.jwks.keys[0]?.kid)
        return false;
      const temporary = `${file}.tmp`;
      writeFileSync(temporary, JSON.stringify(next, null, 2), { mode: 0o600 });
      renameSync(temporary, file);
      return true;
    },
  };
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
