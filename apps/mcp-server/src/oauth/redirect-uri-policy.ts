import { errors } from 'oidc-provider';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * oidc-provider's `extraClientMetadata` hook that adds what OAuth 2.1 §2.3.1 asks of a web client
 * and oidc-provider leaves open: its redirect URIs use `https`, except on this computer
 * (`localhost`, `127.0.0.1`, `[::1]`), where a browser reaches a local app over `http`. A
 * registration (or a configured client, or a metadata document) with
 * `application_type: web` and `http://attacker.example/cb` is refused with
 * `400 invalid_redirect_uri`. Native clients keep oidc-provider's own rules (loopback `http`,
 * claimed `https`, private schemes).
 *
 * @example
 * new Provider(issuer, { extraClientMetadata: redirectUriPolicy });
 */
export const redirectUriPolicy = {
  // Listed to have the validator called with it; it is a standard property all the same.
  properties: ['redirect_uris'],
  validator(_ctx: unknown, key: string, value: unknown, metadata: { application_type?: unknown }) {
    if (key !== 'redirect_uris' || !Array.isArray(value)) return;
    if ((metadata.application_type ?? 'web') !== 'web') return;
    for (const uri of value) {
      if (typeof uri !== 'string' || !URL.canParse(uri)) continue;
      const { protocol, hostname } = new URL(uri);
      if (protocol === 'http:' && !LOOPBACK_HOSTNAMES.has(hostname)) {
        throw new errors.InvalidClientMetadata(
          'redirect_uris of a web client must use https (http only on localhost, 127.0.0.1 or [::1])',
        );
      }
    }
  },
};
