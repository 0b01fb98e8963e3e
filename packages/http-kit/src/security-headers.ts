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
