import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The content security policy of API responses (JSON, problems): they load nothing and may not be
 * framed. Pages set their own policy (the API reference, the marketplace), which this keeps.
 */
export const API_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

/**
 * The headers {@link securityHeaders} sets on an API response, for responses that a Node handler
 * writes itself (oidc-provider behind Hono): set them first, the handler may override them.
 *
 * @example
 * for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) res.setHeader(name, value);
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * Security headers on every response (Hono's `secureHeaders`): `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY` and `frame-ancestors 'none'`, `Referrer-Policy: no-referrer`,
 * cross-origin opener and resource policies, and a content security policy that allows nothing,
 * unless the handler set its own (a page's policy is kept). Strict-Transport-Security is left to
 * whatever terminates TLS in front of the service. Install it first, so that it also covers the
 * problems answered by later middleware.
 *
 * @example
 * app.use(securityHeaders());
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
    overwrite: false,
  });
}
