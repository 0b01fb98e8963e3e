import { pageShell, pageShellStyleSource } from '@dcg/http-kit';

/** The styles the authorization pages add to the shared page shell. */
const AUTHORIZATION_STYLES = `
.lead{font-size:1.05rem}
.scopes{padding-left:1.25rem}
.scopes li{margin:.25rem 0}
.deny{margin-top:.75rem}
.error-code{color:var(--muted);font-size:.9rem}
`;

/**
 * The Content-Security-Policy of the authorization pages: nothing loads, no script runs, the one
 * inline stylesheet is allowed by its hash. No form-action: Chromium applies it to the redirects
 * that follow a post, and the consent ends in a redirect to the client.
 */
export const AUTHORIZATION_PAGE_CSP = `default-src 'none'; style-src ${pageShellStyleSource(AUTHORIZATION_STYLES)}; img-src data:; base-uri 'none'; frame-ancestors 'none'`;

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * escapeHtml('<b>'); // '&#60;b&#62;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An authorization page (sign-in, consent, refusal, error) in the shared page shell of the dcg
 * pages: `lang`, one `main` landmark, the same look as the marketplace, narrow for forms.
 *
 * @example
 * const html = authorizationPage('Sign in', '<p>…</p>');
 */
export function authorizationPage(title: string, body: string): string {
  return pageShell({
    title,
    site: 'dcg MCP server',
    breadcrumbs: [{ label: 'dcg MCP server' }, { label: title }],
    main: `<h1>${escapeHtml(title)}</h1>\n${body}`,
    styles: AUTHORIZATION_STYLES,
    width: 'narrow',
  });
}

/** What the login page shows: the interaction, its CSRF token, the client, and what went wrong. */
export interface LoginPageModel {
  uid: string;
  csrf: string;
  /** The client's display name: kept on every answer of the page, wrong password or not. */
  clientName: string;
  /** An alert above the form (wrong password, back-off, unavailable). */
  alert?: string;
  /** The user name typed before, kept after a failed try. */
  username?: string;
}

/** What the login page says about the back-off, always: people should know before they are locked. */
const THROTTLE_NOTE =
  '<p class="note">After 5 wrong passwords for one user name, or from one network, each further try must wait twice as long as the last (from 1 second up to 15 minutes).</p>';

/**
 * The sign-in page: who asks, the form, the Deny button (on the first answer and after every
 * failed try alike), the back-off note.
 *
 * @example
 * const html = loginPage({ uid, csrf, clientName: 'Claude' });
 */
export function loginPage(model: LoginPageModel): string {
  const { uid, csrf, username } = model;
  return authorizationPage(
    'Sign in',
    `<p class="lead"><strong>${escapeHtml(model.clientName)}</strong> wants to use the dcg MCP server on your behalf.</p>
${model.alert === undefined ? '' : `<p role="alert" class="error">${escapeHtml(model.alert)}</p>`}
<form class="stacked" method="post" action="/interaction/${escapeHtml(uid)}/login">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required${username === undefined ? ' autofocus' : ` value="${escapeHtml(username)}"`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${username === undefined ? '' : ' autofocus'}>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
${denyForm(uid, csrf)}
${THROTTLE_NOTE}`,
  );
}

/** What the consent page shows. */
export interface ConsentPageModel {
  uid: string;
  csrf: string;
  clientName: string;
  clientId: string;
  /** Each scope asked for, with what it allows in words. */
  scopes: Array<{ scope: string; description: string }>;
  resource: string;
  accountId: string;
  /** Where the browser goes after the answer, and whether that is only this computer. */
  redirect: { host: string; onlyLocalhost: boolean };
}

/**
 * The consent page: which client asks for which scopes on which resource, as whom, and where the
 * browser goes next; Allow and Deny.
 *
 * @example
 * const html = consentPage({ uid, csrf, clientName, clientId, scopes, resource, accountId, redirect });
 */
export function consentPage(model: ConsentPageModel): string {
  const { uid, csrf, redirect } = model;
  return authorizationPage(
    'Allow access?',
    `<p class="lead"><strong>${escapeHtml(model.clientName)}</strong> (<code>${escapeHtml(model.clientId)}</code>) asks to:</p>
<ul class="scopes">${model.scopes.map((s) => `<li><code>${escapeHtml(s.scope)}</code>: ${escapeHtml(s.description)}</li>`).join('')}</ul>
<p>on <code>${escapeHtml(model.resource)}</code>, as <strong>${escapeHtml(model.accountId)}</strong>.</p>
<p>If you allow, you go back to <strong class="redirect-host">${escapeHtml(redirect.host)}</strong>.</p>${
      redirect.onlyLocalhost
        ? `\n<p role="alert" class="warning">This application can only send you back to this computer (${escapeHtml(redirect.host)}): any program on it can claim the name above. Allow only if you started ${escapeHtml(model.clientName)} yourself, just now.</p>`
        : ''
    }
<div class="actions">
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit">Allow</button>
</form>
${denyForm(uid, csrf)}
</div>`,
  );
}

function denyForm(uid: string, csrf: string): string {
  return `<form class="deny" method="post" action="/interaction/${escapeHtml(uid)}/abort"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit" class="secondary">Deny</button></form>`;
}

/**
 * A page that refuses a step (CSRF, expired sign-in), with what to do next.
 *
 * @example
 * const html = refusalPage('Refused', 'Sign in first.');
 */
export function refusalPage(title: string, sentence: string): string {
  return authorizationPage(title, `<p>${escapeHtml(sentence)}</p>`);
}

/** The page of an expired or unknown interaction. */
export const EXPIRED_PAGE = refusalPage(
  'Sign-in expired',
  'This sign-in has expired. Start again from your application.',
);

const ERROR_SENTENCES: Readonly<Record<string, string>> = {
  invalid_redirect_uri:
    'The application asked to send you back to an address it has not registered, so this server will not send you there. Nothing was shared. Tell the application’s developer, or start again from the application.',
  invalid_client:
    'This server does not know the application that sent you here. Nothing was shared. Check that the application is set up for this server.',
  invalid_request:
    'The application’s request is not valid. Nothing was shared. Start again from the application; if it happens again, tell its developer.',
};

/**
 * The error page of the authorization endpoint (oidc-provider's `renderError`): what happened in
 * words, then the OAuth error code and description for the application's developer.
 *
 * @example
 * const html = authorizationErrorPage('invalid_redirect_uri', "redirect_uri did not match any of the client's registered redirect_uris");
 */
export function authorizationErrorPage(error: string, description: string): string {
  const sentence =
    ERROR_SENTENCES[error] ??
    'The authorization could not go on. Nothing was shared. Start again from your application.';
  return authorizationPage(
    'Authorization error',
    `<p>${escapeHtml(sentence)}</p>
<p class="error-code">For the developer: <code>${escapeHtml(error)}</code>${description === '' ? '' : ` ${escapeHtml(description)}`}</p>`,
  );
}
