import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { type HttpTarget, reach } from './in-process.testkit';
import { loginAndApprove, pkce } from './oauth-client.testkit';

/** A DPoP key of a client (RFC 9449) that signs real proofs. */
export interface DpopKey {
  jwk: JWK;
  /** A proof for one request; `claims` override or add claims, `iat` in epoch seconds. */
  proof(
    method: string,
    url: string,
    accessToken?: string,
    claims?: Record<string, unknown>,
  ): Promise<string>;
}

/**
 * Makes a DPoP key pair (ES256 by default) whose proofs carry `htm`, `htu`, `iat`, a fresh `jti`
 * and, with an access token, its `ath`.
 *
 * @example
 * const key = await dpopKey();
 * const proof = await key.proof('POST', `${base}/token`);
 */
export async function dpopKey(alg: 'ES256' | 'Ed25519' = 'ES256'): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return {
    jwk,
    proof: (method, url, accessToken, claims = {}) =>
      new SignJWT({
        htm: method,
        htu: url,
        jti: randomUUID(),
        iat: Math.floor(Date.now() / 1000),
        ...(accessToken
          ? { ath: createHash('sha256').update(accessToken).digest('base64url') }
          : {}),
        ...claims,
      })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .sign(privateKey),
  };
}

/**
 * Registers a public client, signs in and consents, and exchanges the code at `/token` with a
 * DPoP proof of `key`: answers the token response (a DPoP-bound token when the server binds).
 *
 * @example
 * const tokens = await dpopAuthorize(server, server.mcpUrl, user, key);
 */
export async function dpopAuthorize(
  target: HttpTarget,
  mcpUrl: string,
  user: { username: string; password: string },
  key: DpopKey | undefined,
  scope = 'marketplace:read kg:read',
): Promise<{
  access_token: string;
  token_type: string;
  refresh_token?: string;
  client_id: string;
}> {
  const { url: base, fetch } = reach(target);
  const redirectUri = 'http://127.0.0.1:33418/callback';
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'dpop test client',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
  });
  if (registered.status !== 201) throw new Error(`registration: ${await registered.text()}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  const { verifier, challenge } = pkce();
  const authorizationUrl = new URL(`${base}/authorize`);
  authorizationUrl.search = new URLSearchParams({
    client_id,
    response_type: 'code',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope,
    resource: mcpUrl,
    state: 'dpop',
  }).toString();
  const callback = await loginAndApprove(
    authorizationUrl,
    target,
    user.username,
    user.password,
    redirectUri,
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const tokenUrl = `${new URL(base).origin}/token`;
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(key ? { dpop: await key.proof('POST', tokenUrl) } : {}),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id,
      resource: mcpUrl,
    }),
  });
  if (response.status !== 200)
    throw new Error(`token: ${response.status} ${await response.text()}`);
  return {
    ...((await response.json()) as { access_token: string; token_type: string }),
    client_id,
  };
}
