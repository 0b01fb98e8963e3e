import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { DPOP_SIGNING_ALGORITHMS, DpopProofError, verifyDpopProof } from './dpop-proof';

/**
 * The gate of `/mcp`: a Bearer token (RFC 6750) or a DPoP-bound token with its proof (RFC 9449).
 * Both are verified by the SDK's `verifyBearerToken` (signature, issuer, audience, expiry); a token
 * bound to a key (`cnf.jkt`) is accepted only as `Authorization: DPoP` with a valid proof, never as
 * Bearer (§7.2), and a DPoP token without a binding is refused. Every 401 carries the Bearer
 * challenge (with `resource_metadata`, which MCP clients read) and a `DPoP algs="…"` challenge.
 *
 * @example
 * const gate = createResourceGate({ verifier, resource, resourceMetadataUrl, targets, claim });
 * const auth = await gate(request); // AuthInfo, or the Response to answer
 */
export function createResourceGate(options: {
  verifier: OAuthTokenVerifier;
  resource: URL;
  resourceMetadataUrl: string;
  /** The URLs a proof may name as `htu` for this request (the public `/mcp` URL, and on loopback its aliases). */
  targets: readonly string[];
  /** Records a proof id until an epoch second; false when seen before (see `OAuthStore.claimOnce`). */
  claim: (id: string, expiresAt: number) => Promise<boolean>;
}): (request: Request) => Promise<AuthInfo | Response> {
  const algs = DPOP_SIGNING_ALGORITHMS.join(' ');
  const refuse = (error: unknown, dpopError?: { code: string; description: string }) => {
    const response = bearerAuthChallengeResponse(error, {
      resourceMetadataUrl: options.resourceMetadataUrl,
    });
    if (response.status === 401) {
      response.headers.append(
        'www-authenticate',
        dpopError
          ? `DPoP error="${dpopError.code}", error_description="${quoted(dpopError.description)}", algs="${algs}"`
          : `DPoP algs="${algs}"`,
      );
    }
    return response;
  };
  const verify = (header: string) =>
    verifyBearerToken(header, {
      verifier: options.verifier,
      expectedResource: options.resource,
      resourceMetadataUrl: options.resourceMetadataUrl,
    });

  return async (request) => {
    const header = request.headers.get('authorization') ?? undefined;
    const [scheme, token, ...rest] = (header ?? '').split(' ');
    try {
      if (scheme?.toLowerCase() !== 'dpop') {
        const auth = await verify(header as string);
        if (typeof auth.extra?.jkt === 'string') {
          const description =
            'This access token is bound to a DPoP key: send it as Authorization: DPoP with a proof';
          return refuse(new OAuthError(OAuthErrorCode.InvalidToken, description), {
            code: 'invalid_token',
            description,
          });
        }
        return auth;
      }
      if (!token || rest.length > 0) {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          "Invalid Authorization header format, expected 'DPoP TOKEN'",
        );
      }
      const auth = await verify(`Bearer ${token}`);
      const jkt = auth.extra?.jkt;
      if (typeof jkt !== 'string') {
        const description = 'This access token is not bound to a DPoP key: send it as Bearer';
        return refuse(new OAuthError(OAuthErrorCode.InvalidToken, description), {
          code: 'invalid_token',
          description,
        });
      }
      await verifyDpopProof({
        proof: request.headers.get('dpop'),
        method: request.method,
        targets: options.targets,
        accessToken: token,
        jkt,
        claim: options.claim,
      });
      return auth;
    } catch (error) {
      if (DpopProofError.isInstance(error)) {
        return refuse(new OAuthError(OAuthErrorCode.InvalidToken, error.message), {
          code: error.code,
          description: error.message,
        });
      }
      return refuse(error);
    }
  };
}

function quoted(value: string): string {
  return value.replaceAll(/[\\"]/g, String.raw`\$&`).replaceAll(/[^\u0020-\u007E]/g, ' ');
}
