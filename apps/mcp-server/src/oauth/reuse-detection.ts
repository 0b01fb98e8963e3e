import { errors } from 'oidc-provider';

/** The single-use credential that was presented a second time. */
export type ReusedCredential = 'authorization_code' | 'refresh_token' | 'other';

const REUSED = Symbol.for('dcg.mcp-server.oauth.reused-credential');

const CREDENTIAL_OF_MODEL: Record<string, ReusedCredential> = {
  AuthorizationCode: 'authorization_code',
  RefreshToken: 'refresh_token',
};

/**
 * oidc-provider's own reuse answers (9.x), read from its `error_detail`: a code or refresh token
 * found already consumed (`lib/helpers/grant_source.js`, `lib/actions/grants/refresh_token.js`).
 * Both revoke the grant first, as our stores do when a concurrent consume loses.
 */
const PROVIDER_REUSE_DETAILS: ReadonlyArray<[RegExp, ReusedCredential]> = [
  [/^authorization code already consumed$/, 'authorization_code'],
  [/^refresh token already (?:used|consumed)$/, 'refresh_token'],
  [/^.+ already consumed$/, 'other'],
];

/**
 * The error of a consume that lost: the code or refresh token was used already (or its grant was
 * revoked meanwhile). oidc-provider answers it as `invalid_grant`; {@link reusedCredential}
 * recognises it.
 *
 * @example
 * throw reuseDetected('RefreshToken');
 */
export function reuseDetected(model: string): Error {
  const error = new errors.InvalidGrant(`${model} already used: its grant is revoked`);
  Object.defineProperty(error, REUSED, { value: CREDENTIAL_OF_MODEL[model] ?? 'other' });
  return error;
}

/**
 * Which single-use credential an OAuth error says was reused (OAuth 2.1 §4.1.3, §4.3.1: a replay,
 * answered `invalid_grant` after the grant was revoked), or undefined for any other error: one
 * our store threw ({@link reuseDetected}) or one oidc-provider found consumed itself.
 *
 * @example
 * provider.on('grant.error', (ctx, error) => { if (reusedCredential(error)) alarm(); });
 */
export function reusedCredential(error: unknown): ReusedCredential | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const marked = (error as { [REUSED]?: ReusedCredential })[REUSED];
  if (marked) return marked;
  const { error: code, error_detail: detail } = error as {
    error?: unknown;
    error_detail?: unknown;
  };
  if (code !== 'invalid_grant' || typeof detail !== 'string') return undefined;
  return PROVIDER_REUSE_DETAILS.find(([pattern]) => pattern.test(detail))?.[1];
}
