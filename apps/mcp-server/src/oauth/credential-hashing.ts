import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';

/**
 * The oidc-provider models whose id is itself a credential (the code or token a client presents):
 * the stores keep only its SHA-256 and look rows up by it, and drop the `jti` (the same value) from
 * the payload. Not here: Grant, Client (ids are public), Session and Interaction (ids travel in
 * signed cookies, and Session is also found by uid), DeviceCode (found by user code; the device
 * flow is off).
 */
const CREDENTIAL_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'PreAuthorizedCode',
]);

/** How a stored client secret is marked as hashed (a configured client's secret is plain). */
const HASHED_SECRET_PREFIX = 'sha256$';

/**
 * The SHA-256 of a credential, base64url. Codes, tokens and generated client secrets carry 256
 * random bits, so a fast unsalted hash is enough: there is nothing to guess.
 *
 * @example
 * hashCredential('a-refresh-token'); // 'x3Q…' (43 characters)
 */
export function hashCredential(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** The key a row of `model` is stored under: the hash of a credential, else the id itself. */
export function storedId(model: string, id: string): string {
  return CREDENTIAL_MODELS.has(model) ? hashCredential(id) : id;
}

/** Whether the rows of `model` are stored under the hash of their id. */
export function isCredentialModel(model: string): boolean {
  return CREDENTIAL_MODELS.has(model);
}

/** The payload as stored: without the credential itself, and with a client secret hashed. */
export function toStoredPayload(model: string, payload: AdapterPayload): AdapterPayload {
  if (CREDENTIAL_MODELS.has(model)) {
    const { jti: _credential, ...rest } = payload;
    return rest;
  }
  const secret = payload.client_secret;
  if (
    model === 'Client' &&
    typeof secret === 'string' &&
    !secret.startsWith(HASHED_SECRET_PREFIX)
  ) {
    return { ...payload, client_secret: `${HASHED_SECRET_PREFIX}${hashCredential(secret)}` };
  }
  return payload;
}

/** The payload as oidc-provider expects it back: the credential it was found by as `jti`. */
export function fromStoredPayload<T extends AdapterPayload>(
  model: string,
  id: string,
  payload: T,
): T {
  return CREDENTIAL_MODELS.has(model) ? { ...payload, jti: id } : payload;
}

/**
 * Whether a presented client secret matches the stored one: a hashed one (a registered client's,
 * from the store) by its hash, a plain one (a configured client's) as it is; constant time.
 *
 * @example
 * clientSecretMatches(client.clientSecret, presented);
 */
export function clientSecretMatches(stored: string | undefined, presented: string): boolean {
  if (typeof stored !== 'string') return false;
  const expected = stored.startsWith(HASHED_SECRET_PREFIX)
    ? stored.slice(HASHED_SECRET_PREFIX.length)
    : hashCredential(stored);
  const given = Buffer.from(hashCredential(presented));
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), given);
}
