import { type HttpTarget, reach } from './in-process.testkit';
import { type CookieBrowser, pkce, signInAndConsent } from './oauth-client.testkit';

// The steps of an OAuth client over plain HTTP (register, authorize, sign in and consent, token),
// for the tests that look at each step; `authorize()` of oauth-client.testkit walks them with the SDK.

/**
 * Dynamic client registration (`POST /register`), answered as is.
 *
 * @example
 * expect((await register(server.url, { redirect_uris: ['x'] })).status).toBe(400);
 */
export function register(base: HttpTarget, metadata: Record<string, unknown>): Promise<Response> {
  const { url, fetch } = reach(base);
  return fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
}

/**
 * Registers a client (a public one unless `metadata` says otherwise) and answers its credentials;
 * throws unless the server answered 201.
 *
 * @example
 * const { client_id } = await registerClient(server.url, { redirect_uris: [REDIRECT] });
 */
export async function registerClient(
  base: HttpTarget,
  metadata: Record<string, unknown>,
): Promise<{ client_id: string; client_secret?: string }> {
  const response = await register(base, { token_endpoint_auth_method: 'none', ...metadata });
  if (response.status !== 201) {
    throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as { client_id: string; client_secret?: string };
}

/** What an authorization request names (`scope` defaults to `marketplace:read`). */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** The PKCE S256 challenge. */
  challenge: string;
  scope?: string;
  resource?: string;
  state?: string;
}

/**
 * The `/authorize` URL of an authorization code request with PKCE S256.
 *
 * @example
 * await browser.follow(authorizationUrl(server.url, { clientId, redirectUri, challenge }));
 */
export function authorizationUrl(base: string, request: AuthorizationRequest): string {
  const query = new URLSearchParams({
    client_id: request.clientId,
    response_type: 'code',
    redirect_uri: request.redirectUri,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
    scope: request.scope ?? 'marketplace:read',
  });
  if (request.resource !== undefined) query.set('resource', request.resource);
  if (request.state !== undefined) query.set('state', request.state);
  return `${base}/authorize?${query}`;
}

/**
 * A fresh authorization code: opens `/authorize` in `browser`, signs in where asked (after
 * `wrongPasswordsFirst` wrong passwords, each answered 401) and consents; answers the code and
 * its PKCE verifier.
 *
 * @example
 * const grant = await authorizationCode(new CookieBrowser(), server.url, { clientId, redirectUri, username: 'demo', password });
 */
export async function authorizationCode(
  browser: CookieBrowser,
  base: string,
  request: Omit<AuthorizationRequest, 'challenge'> & {
    username: string;
    password: string;
    wrongPasswordsFirst?: number;
  },
): Promise<{ code: string; verifier: string; callback: URL }> {
  const { verifier, challenge } = pkce();
  const callback = await signInAndConsent(
    browser,
    base,
    authorizationUrl(base, { ...request, challenge }),
    request,
    request.redirectUri,
  );
  return { code: callback.searchParams.get('code')!, verifier, callback };
}

/**
 * A token request (`POST /token`, form encoded), answered as is.
 *
 * @example
 * await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token, client_id });
 */
export function tokenRequest(
  base: HttpTarget,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const { url, fetch } = reach(base);
  return fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/**
 * The `Authorization` header of `client_secret_basic`.
 *
 * @example
 * await tokenRequest(server.url, form, { authorization: basicAuth('confidential', secret) });
 */
export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}
