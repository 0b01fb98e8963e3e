import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { type HttpTarget, reach } from './in-process.testkit';

/**
 * An OAuthClientProvider held in memory, as a test client: it records the authorization URL the
 * SDK wants to open instead of opening a browser.
 *
 * @example
 * const oauth = new MemoryOAuthClient({ redirectUrl: 'http://127.0.0.1:33418/callback' });
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  information: StoredOAuthClientInformation | undefined;
  stored: StoredOAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  discovery: unknown;
  readonly metadata: OAuthClientMetadata;
  clientMetadataUrl?: string;

  constructor(options: {
    redirectUrl: string;
    clientName?: string;
    information?: StoredOAuthClientInformation;
    clientMetadataUrl?: string;
    applicationType?: 'web' | 'native';
  }) {
    this.metadata = {
      client_name: options.clientName ?? 'dcg test client',
      redirect_uris: [options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(options.applicationType ? { application_type: options.applicationType } : {}),
    } as OAuthClientMetadata;
    this.information = options.information;
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
  }
  get redirectUrl() {
    return this.metadata.redirect_uris[0]!;
  }
  get clientMetadata() {
    return this.metadata;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}

/**
 * A browser without a browser: fetch with a cookie jar (by name and path, as browsers keep them:
 * two servers on one host name share cookies, ports do not separate them) that follows redirects
 * by hand.
 */
export class CookieBrowser {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  /** `fetchFn` reaches the server (an in-process server's own fetch, or the network). */
  constructor(private readonly fetchFn: typeof fetch = fetch) {}

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const path = new URL(url).pathname;
    const matching = [...this.cookies.values()].filter(
      (cookie) =>
        path === cookie.path ||
        path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
    );
    if (matching.length > 0) {
      headers.set('cookie', matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '));
    }
    const response = await this.fetchFn(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const cookiePath =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const key = `${name} ${cookiePath}`;
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path: cookiePath });
    }
    return response;
  }

  /** Follows redirects until a page (2xx/4xx) or a redirect to `stopAt` (answered as its URL). */
  async follow(
    url: string | URL,
    init: RequestInit = {},
    stopAt?: string,
  ): Promise<{ response?: Response; stoppedAt?: URL }> {
    let response = await this.request(url, init);
    let current = new URL(url);
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops++) {
      const next = new URL(response.headers.get('location')!, current);
      // An unread body holds its connection until garbage collection; many such walks would
      // exceed the server's connections per client.
      await response.body?.cancel();
      if (stopAt && next.href.startsWith(stopAt)) return { stoppedAt: next };
      current = next;
      response = await this.request(next);
    }
    return { response };
  }
}

/** The CSRF token and form action of a login or consent page. */
export function formOf(
  html: string,
  action: 'login' | 'confirm' | 'abort',
): { action: string; csrf: string } {
  const match = new RegExp(
    `action="(/interaction/[^"]+/${action})"[^]*?name="csrf" value="([^"]+)"`,
  ).exec(html);
  if (!match) throw new Error(`no ${action} form in:\n${html}`);
  return { action: match[1]!, csrf: match[2]! };
}

/**
 * Posts a form of the sign-in or consent page from this server's own origin, following redirects
 * until a page or the client's redirect URI (`stopAt`).
 *
 * @example
 * const form = formOf(html, 'confirm');
 * const back = await postForm(browser, server.url, form.action, { csrf: form.csrf }, REDIRECT);
 */
export function postForm(
  browser: CookieBrowser,
  base: string,
  action: string,
  fields: Record<string, string>,
  stopAt?: string,
): ReturnType<CookieBrowser['follow']> {
  return browser.follow(
    new URL(action, base),
    {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(base).origin,
      },
      body: new URLSearchParams(fields),
    },
    stopAt,
  );
}

/**
 * Signs in and approves the consent for an authorization URL; answers the URL the server sent the
 * browser back to (the client's redirect URI with code, state and iss).
 *
 * @example
 * const callback = await loginAndApprove(oauth.authorizationUrl!, base, 'demo', password, oauth.redirectUrl);
 */
export async function loginAndApprove(
  authorizationUrl: URL,
  base: HttpTarget,
  username: string,
  password: string,
  redirectUrl: string,
): Promise<URL> {
  const { url, fetch } = reach(base);
  return signInAndConsent(
    new CookieBrowser(fetch),
    url,
    authorizationUrl,
    { username, password },
    redirectUrl,
  );
}

/**
 * Opens an authorization URL in `browser`, signs in where asked (after `wrongPasswordsFirst` wrong
 * passwords, each answered 401) and consents; answers the URL the server sent the browser back to.
 *
 * @example
 * const callback = await signInAndConsent(browser, base, url, { username, password }, redirectUri);
 */
export async function signInAndConsent(
  browser: CookieBrowser,
  base: string,
  authorizationUrl: string | URL,
  credentials: { username: string; password: string; wrongPasswordsFirst?: number },
  redirectUrl: string,
): Promise<URL> {
  const post = (action: string, fields: Record<string, string>) =>
    postForm(browser, base, action, fields, redirectUrl);
  let wrong = credentials.wrongPasswordsFirst ?? 0;
  let step = await browser.follow(authorizationUrl, {}, redirectUrl);
  for (let round = 0; round < 4 + wrong && !step.stoppedAt; round++) {
    const html = await step.response!.text();
    if (html.includes('/login"')) {
      const form = formOf(html, 'login');
      const password = wrong > 0 ? `${credentials.password}-wrong` : credentials.password;
      step = await post(form.action, { csrf: form.csrf, username: credentials.username, password });
      if (wrong-- > 0 && step.response?.status !== 401) {
        throw new Error(`a wrong password answered ${step.response?.status}, not 401`);
      }
    } else if (html.includes('/confirm"')) {
      const form = formOf(html, 'confirm');
      step = await post(form.action, { csrf: form.csrf });
    } else {
      throw new Error(`unexpected page (${step.response!.status}):\n${html.slice(0, 2000)}`);
    }
  }
  if (!step.stoppedAt) throw new Error('the authorization did not come back to the client');
  return step.stoppedAt;
}

/**
 * Registers a client and walks the whole authorization with the SDK's client and provider;
 * answers the tokens and the client.
 *
 * @example
 * const { oauth } = await authorize(server.mcpUrl, server, user, password);
 */
export async function authorize(
  mcpUrl: string,
  base: HttpTarget,
  username: string,
  password: string,
  options: { redirectUrl?: string; oauth?: MemoryOAuthClient } = {},
): Promise<{ oauth: MemoryOAuthClient; accessToken: string; refreshToken: string | undefined }> {
  const { Client, StreamableHTTPClientTransport, UnauthorizedError } = await import(
    '@modelcontextprotocol/client'
  );
  const oauth =
    options.oauth ??
    new MemoryOAuthClient({
      redirectUrl: options.redirectUrl ?? 'http://127.0.0.1:33418/callback',
    });
  const client = new Client(
    { name: 'authorize', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    authProvider: oauth,
    fetch: reach(base).fetch,
  });
  const refused = await client.connect(transport).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError))
    throw new Error(`expected a 401 first, got ${String(refused)}`);
  const callback = await loginAndApprove(
    oauth.authorizationUrl!,
    base,
    username,
    password,
    oauth.redirectUrl,
  );
  await transport.finishAuth(callback.searchParams);
  return {
    oauth,
    accessToken: oauth.stored!.access_token,
    refreshToken: oauth.stored!.refresh_token,
  };
}

/** A PKCE S256 verifier and its challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
