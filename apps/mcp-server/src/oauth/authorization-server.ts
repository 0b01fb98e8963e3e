import { SCOPES } from '@dcg/mcp-tools';
import type { JWK } from 'jose';
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { McpServerConfig } from '../config';
import { AUTHORIZATION_PAGE_CSP, authorizationErrorPage } from './authorization-pages';
import { clientSecretMatches } from './credential-hashing';
import { DPOP_SIGNING_ALGORITHMS } from './dpop-proof';
import type { OAuthStore } from './oauth-store';
import { redirectUriPolicy } from './redirect-uri-policy';
import type { SigningKeys } from './signing-keys';

/** Every scope clients may ask for: the tools' scopes and offline_access (refresh tokens). */
export const SUPPORTED_SCOPES = [...Object.values(SCOPES), 'offline_access'];

/**
 * Builds the OAuth 2.1 authorization server on oidc-provider: authorization code with PKCE S256
 * only, RFC 8707 resource indicators with the MCP endpoint as the one resource (ES256 JWT access
 * tokens for it), refresh tokens only with offline_access and rotated on every use (reuse of a
 * rotated one, or a concurrent second use, revokes the whole grant: see `OAuthStore`), revocation,
 * RFC 9207 `iss` on authorization responses, DPoP-bound tokens when the token request carries a
 * proof (RFC 9449), no PAR,
 * pre-registered clients, Client ID Metadata Documents (oidc-provider fetches them with its SSRF
 * guard: no special-use addresses, no redirects, size and time caps) and dynamic registration.
 *
 * @example
 * const provider = createAuthorizationServer({ issuer, resource, config, store, keys });
 */
export function createAuthorizationServer(options: {
  issuer: string;
  resource: string;
  oauth: McpServerConfig['oauth'];
  store: OAuthStore;
  keys: SigningKeys;
  /** The fetch of metadata documents (see `metadata-document-fetch.ts`). */
  fetch: (url: string | URL, init: RequestInit) => Promise<Response>;
}): Provider {
  const { oauth, resource } = options;
  const scopeList = SUPPORTED_SCOPES.join(' ');
  const configuration: Configuration = {
    adapter: (name: string) => options.store.adapter(name),
    clients: oauth.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client.client_secret ? 'client_secret_basic' : 'none',
      ...(client.scope ? {} : { scope: scopeList }),
    })),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
      scope: scopeList,
    },
    jwks: { keys: options.keys.jwks.keys.map(privateJwk) as never },
    cookies: { keys: options.keys.cookieKeys, long: { signed: true }, short: { signed: true } },
    scopes: SUPPORTED_SCOPES,
    extraClientMetadata: redirectUriPolicy as Configuration['extraClientMetadata'],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    // Registered clients' secrets are stored hashed, so nothing may use a secret as an HMAC key.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    fetch: options.fetch as Configuration['fetch'],
    // The algorithms the resource server's gate verifies proofs with (see dpop-proof.ts).
    enabledJWA: { dPoPSigningAlgValues: DPOP_SIGNING_ALGORITHMS } as Configuration['enabledJWA'],
    fetchResponseBodyLimits: {
      'client_id metadata document': oauth.clientIdMetadataDocumentFetch.maxBytes,
    } as Configuration['fetchResponseBodyLimits'],
    routes: {
      authorization: '/authorize',
      token: '/token',
      registration: '/register',
      revocation: '/revoke',
      jwks: '/jwks',
      end_session: '/session/end',
    },
    features: {
      devInteractions: { enabled: false },
      // Sender-constrained tokens (RFC 9449): a token asked for with a proof is bound to its key,
      // and /mcp accepts it only with a proof of that key (resource-gate.ts).
      dPoP: { enabled: true },
      // No MCP client uses PAR and nothing here is tested with it: not offered, not advertised.
      pushedAuthorizationRequests: { enabled: false },
      // A client revokes only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: (
          _ctx: KoaContextWithOIDC,
          client: { clientId: string },
          token: { clientId?: string },
        ) => token.clientId === client.clientId,
      },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      registration: { enabled: oauth.dynamicRegistration.enabled, initialAccessToken: false },
      clientIdMetadataDocument: {
        enabled: oauth.clientIdMetadataDocuments,
        ack: 'draft-02',
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, requested: string) => {
          if (requested.replace(/\/$/, '') !== resource) {
            throw new errors.InvalidTarget(`this server only issues tokens for ${resource}`);
          }
          return {
            scope: Object.values(SCOPES).join(' '),
            audience: resource,
            accessTokenTTL: oauth.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    } as Configuration['features'],
    extraTokenClaims: (_ctx, token) => ({ gid: (token as { grantId?: string }).grantId }),
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: () => true,
    revokeGrantPolicy: () => true,
    ttl: {
      AccessToken: oauth.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      RefreshToken: oauth.refreshTokenTtlSeconds,
      Grant: oauth.refreshTokenTtlSeconds,
      Interaction: 600,
      Session: 86_400,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', AUTHORIZATION_PAGE_CSP);
      ctx.body = authorizationErrorPage(String(out.error), String(out.error_description ?? ''));
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  // oidc-provider's hook for secrets it cannot read back (panva/node-oidc-provider#631).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(actual: string) {
    return clientSecretMatches(this.clientSecret, actual);
  };
  provider.use(offlineAccessWithoutPromptConsent);
  return provider;
}

/**
 * OpenID Connect Core §11 has oidc-provider drop `offline_access` unless the request says
 * `prompt=consent`; OAuth 2.1 clients (MCP clients among them) may not say it. An authorization
 * request that asks for `offline_access` without any `prompt` is treated as `prompt=consent`: the
 * person sees "Stay signed in" on the consent page and approves it, and the code then carries
 * `offline_access`, so a client registered for the refresh_token grant gets a refresh token.
 * (`prompt=none` or `prompt=login` keep the rule: no consent page, no refresh token.)
 */
async function offlineAccessWithoutPromptConsent(
  ctx: KoaContextWithOIDC,
  next: () => Promise<void>,
) {
  if (ctx.method === 'GET' && ctx.path === '/authorize') {
    const query = ctx.query as Record<string, string | string[] | undefined>;
    const scope = typeof query.scope === 'string' ? query.scope.split(' ') : [];
    if (query.prompt === undefined && scope.includes('offline_access')) {
      ctx.query = { ...query, prompt: 'consent' };
    }
  }
  await next();
}

/** The public half of the signing keys, for the resource server. */
export function publicJwks(keys: SigningKeys): { keys: JWK[] } {
  return {
    keys: keys.jwks.keys.map(({ d: _d, 'dcg:createdAt': _c, ...rest }) => rest),
  };
}

function privateJwk(key: SigningKeys['jwks']['keys'][number]): JWK {
  const { 'dcg:createdAt': _created, ...rest } = key;
  return rest;
}
