import { createHash, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import type { McpEnv } from '../app-env';
import { epoch, type OAuthStore } from './oauth-store';

/** The path upstream providers send people back to (register it there as the redirect URI). */
export const UPSTREAM_CALLBACK_PATH = '/oauth/upstream/callback';

const DiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});

/** How the upstream login is configured. */
export interface UpstreamOidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  scopes: string[];
  accountClaim: string;
  timeoutMs: number;
}

/**
 * Signing in at an upstream OpenID Connect provider (authorization code with PKCE S256 and a nonce,
 * discovery, ID token checked against the provider's keys) in place of local users. `start` sends
 * the browser there for one interaction; the callback route finishes that interaction's login with
 * the account named by `accountClaim`. The state of a pending login lives in the OAuth store, so
 * any instance can take the callback.
 *
 * @example
 * const upstream = upstreamOidc({ settings, provider: () => provider, store, issuer });
 * app.route('/', upstream.routes);
 */
export function upstreamOidc(deps: {
  settings: UpstreamOidcSettings;
  provider: () => Provider;
  store: OAuthStore;
  /** This server's issuer (origin): the callback is `<issuer>/oauth/upstream/callback`. */
  issuer: string;
}) {
  const { settings } = deps;
  const redirectUri = `${deps.issuer}${UPSTREAM_CALLBACK_PATH}`;
  const pending = deps.store.adapter('UpstreamLogin');
  let discovered:
    | Promise<{
        metadata: z.infer<typeof DiscoverySchema>;
        keys: ReturnType<typeof createRemoteJWKSet>;
      }>
    | undefined;

  const discover = () => {
    discovered ??= (async () => {
      const url = `${settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
      const response = await fetch(url, {
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      const metadata = DiscoverySchema.parse(await response.json());
      if (metadata.issuer.replace(/\/+$/, '') !== settings.issuer.replace(/\/+$/, '')) {
        throw new Error(
          `the discovery document of ${settings.issuer} names another issuer (${metadata.issuer})`,
        );
      }
      return {
        metadata,
        keys: createRemoteJWKSet(new URL(metadata.jwks_uri), {
          timeoutDuration: settings.timeoutMs,
        }),
      };
    })();
    // A failed discovery is retried at the next login.
    discovered.catch(() => {
      discovered = undefined;
    });
    return discovered;
  };

  const routes = new Hono<McpEnv>();
  routes.get(UPSTREAM_CALLBACK_PATH, async (c) => {
    const state = c.req.query('state');
    const login = state ? await pending.find(state) : undefined;
    if (!state || !login)
      return c.text('This sign-in has expired. Start again from your application.', 400);
    await pending.destroy(state);
    const { uid, verifier, nonce } = login as { uid: string; verifier: string; nonce: string };
    const provider = deps.provider();
    const interaction = await provider.Interaction.find(uid);
    if (!interaction)
      return c.text('This sign-in has expired. Start again from your application.', 400);
    const finish = async (result: Record<string, unknown>) => {
      interaction.result = result;
      await interaction.save(Math.max(1, (interaction.exp ?? epoch() + 60) - epoch()));
      return c.redirect(interaction.returnTo, 303);
    };
    const code = c.req.query('code');
    if (!code) {
      return finish({
        error: 'access_denied',
        error_description: `The identity provider refused: ${c.req.query('error') ?? 'no code'}`,
      });
    }
    let accountId: string;
    try {
      const { metadata, keys } = await discover();
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      if (settings.clientSecret) {
        headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString('base64')}`;
      } else {
        body.set('client_id', settings.clientId);
      }
      const response = await fetch(metadata.token_endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      });
      const tokens = (await response.json()) as { id_token?: unknown; error?: string };
      if (!response.ok || typeof tokens.id_token !== 'string') {
        throw new Error(
          `the token endpoint answered ${response.status}${tokens.error ? ` ${tokens.error}` : ''}`,
        );
      }
      const { payload } = await jwtVerify(tokens.id_token, keys, {
        issuer: metadata.issuer,
        audience: settings.clientId,
      });
      if (payload.nonce !== nonce) throw new Error('the ID token carries another nonce');
      const claim = [settings.accountClaim, 'email', 'sub']
        .map((name) => payload[name])
        .find((v) => typeof v === 'string' && v !== '');
      if (typeof claim !== 'string') throw new Error('the ID token names no account');
      accountId = claim;
    } catch (error) {
      return finish({
        error: 'access_denied',
        error_description: `Sign-in at the identity provider failed: ${(error as Error).message}`,
      });
    }
    return finish({ login: { accountId } });
  });

  return {
    routes,
    /** The URL of the upstream provider to send the browser to, for the interaction `uid`. */
    async start(uid: string): Promise<string> {
      const { metadata } = await discover();
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(24).toString('base64url');
      const nonce = randomBytes(24).toString('base64url');
      await pending.upsert(state, { uid, verifier, nonce }, 600);
      const url = new URL(metadata.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: settings.scopes.join(' '),
        state,
        nonce,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return url.href;
    },
  };
}
