/** Headers a browser client may send to /mcp and the authentication APIs. */
export const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  // DPoP proofs (RFC 9449), at /token and /mcp.
  'dpop',
];
/** Headers a browser client may read from the answers. */
export const EXPOSED_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate'];

/**
 * The CORS policy of the configured origins (`cors.origin`: a string or a list; `*` allows any).
 * An origin that is not allowed gets no CORS headers at all.
 *
 * @example
 * const policy = corsPolicy(['https://inspector.example']);
 * policy.headersFor('https://inspector.example', 'POST, OPTIONS');
 */
export function corsPolicy(origin: string | readonly string[]) {
  const origins = new Set(typeof origin === 'string' ? [origin] : origin);
  const allows = (value: string | undefined | null): value is string =>
    typeof value === 'string' && (origins.has('*') || origins.has(value));
  return {
    allows,
    /** Headers of an actual answer to an allowed origin (empty for any other). */
    headersFor(value: string | undefined | null): Record<string, string> {
      if (!allows(value)) return {};
      return {
        'access-control-allow-origin': value,
        'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
        vary: 'Origin',
      };
    },
    /** Headers of a preflight answer to an allowed origin (empty for any other). */
    preflightFor(value: string | undefined | null, methods: string): Record<string, string> {
      if (!allows(value)) return {};
      return {
        'access-control-allow-origin': value,
        'access-control-allow-methods': methods,
        'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
        'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
        'access-control-max-age': '600',
        vary: 'Origin',
      };
    },
  };
}

export type CorsPolicy = ReturnType<typeof corsPolicy>;
