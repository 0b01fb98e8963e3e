import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, jwtVerify } from 'jose';

/** The JWS algorithms of DPoP proofs, at the token endpoint (oidc-provider) and at `/mcp` alike. */
export const DPOP_SIGNING_ALGORITHMS = ['ES256', 'Ed25519', 'EdDSA'];

/** How far a proof's `iat` may lie from this server's clock, in seconds (either way). */
export const DPOP_PROOF_WINDOW_SECONDS = 60;

const marker: unique symbol = Symbol.for('dcg.mcp-server.DpopProofError');

/**
 * Why a DPoP proof was refused (RFC 9449 §4.3), answered as `invalid_dpop_proof`.
 *
 * @example
 * if (DpopProofError.isInstance(error)) return challenge('invalid_dpop_proof', error.message);
 */
export class DpopProofError extends Error {
  readonly code = 'invalid_dpop_proof';
  readonly [marker] = true;
  static isInstance(value: unknown): value is DpopProofError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/**
 * Checks the DPoP proof of a request to the resource server (RFC 9449 §4.3 and §7.1): one
 * `dpop+jwt` signed with one of {@link DPOP_SIGNING_ALGORITHMS} by the public key in its header,
 * whose thumbprint is the token's `cnf.jkt`; `htm` the request's method; `htu` one of `targets`
 * (without query and fragment); `iat` within {@link DPOP_PROOF_WINDOW_SECONDS} of now; `ath` the
 * hash of the access token; and a `jti` never seen before for this key, remembered by `claim`
 * (the OAuth store, so a proof replayed at another instance is refused too).
 *
 * @example
 * await verifyDpopProof({ proof, method: 'POST', targets: [resource], accessToken, jkt, claim });
 */
export async function verifyDpopProof(check: {
  proof: string | null;
  method: string;
  /** The URLs this request may name as `htu` (the public resource URL). */
  targets: readonly string[];
  accessToken: string;
  /** The `cnf.jkt` of the access token. */
  jkt: string;
  /** Records a proof id until an epoch second; false when it was recorded before. */
  claim: (id: string, expiresAt: number) => Promise<boolean>;
}): Promise<void> {
  const { proof } = check;
  if (!proof) throw new DpopProofError('The request carries no DPoP proof (DPoP header)');
  // Two DPoP headers arrive joined by a comma, which no compact JWS contains.
  if (proof.includes(',')) throw new DpopProofError('The request carries more than one DPoP proof');
  let payload: Record<string, unknown>;
  let jwk: JWK;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: DPOP_SIGNING_ALGORITHMS,
    });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk as JWK;
  } catch (error) {
    throw new DpopProofError(`The DPoP proof is not valid: ${(error as Error).message}`);
  }
  if ((await calculateJwkThumbprint(jwk, 'sha256')) !== check.jkt) {
    throw new DpopProofError('The DPoP proof is signed by another key than the token is bound to');
  }
  if (payload.htm !== check.method) {
    throw new DpopProofError(`The DPoP proof is for ${String(payload.htm)}, not ${check.method}`);
  }
  if (typeof payload.htu !== 'string' || !check.targets.includes(withoutQuery(payload.htu))) {
    throw new DpopProofError('The DPoP proof is for another URL (htu)');
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(payload.iat - now) > DPOP_PROOF_WINDOW_SECONDS) {
    throw new DpopProofError(
      `The DPoP proof was not made within ${DPOP_PROOF_WINDOW_SECONDS} s of now (iat)`,
    );
  }
  const tokenHash = createHash('sha256').update(check.accessToken).digest('base64url');
  if (payload.ath !== tokenHash) {
    throw new DpopProofError('The DPoP proof is for another access token (ath)');
  }
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) {
    throw new DpopProofError('The DPoP proof has no valid jti');
  }
  const id = createHash('sha256').update(`${check.jkt}.${payload.jti}`).digest('base64url');
  // Kept until no clock could still accept the proof's iat.
  if (!(await check.claim(id, Math.max(now, payload.iat) + DPOP_PROOF_WINDOW_SECONDS + 1))) {
    throw new DpopProofError('The DPoP proof was used before (jti)');
  }
}

/** A URL without query and fragment, normalised (RFC 9449 §4.3: htu compares so). */
export function withoutQuery(url: string): string {
  if (!URL.canParse(url)) return '';
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
