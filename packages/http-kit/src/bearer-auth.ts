import { hash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { problemResponse } from './problem';

/** A configured API key and what it may do. */
export interface ApiKey {
  key: string;
  role: string;
  name?: string;
  [extra: string]: unknown;
}

/** The caller behind a valid API key (the key itself is never kept on the context). */
export interface Principal {
  role: string;
  name?: string;
  [extra: string]: unknown;
}

/** Variables that `bearerAuth` puts on the Hono context. */
export interface AuthVariables {
  principal: Principal | undefined;
}

// One-shot hashing: no Hash object per request.
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * Compares two secrets in constant time. Both sides are hashed first, so neither the content nor
 * the length of a key leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function unauthorized(detail: string): Response {
  return problemResponse(
    { status: 401, title: 'Unauthorized', detail },
    { 'WWW-Authenticate': 'Bearer realm="dcg"' },
  );
}

/**
 * Reads `Authorization: Bearer <key>` and sets `principal` when the key is configured. Every
 * configured key is compared (no early exit), in constant time. With `required: false` a request
 * without a header passes with no principal; a wrong key is always 401.
 *
 * @example
 * app.use('/v1/*', bearerAuth({ keys: [{ key: process.env.ADMIN_KEY!, role: 'admin' }] }));
 */
export function bearerAuth(options: {
  keys: readonly ApiKey[];
  required?: boolean;
}): MiddlewareHandler<{ Variables: AuthVariables }> {
  const keys = options.keys.map(({ key, ...principal }) => ({ digest: digest(key), principal }));
  const required = options.required ?? true;
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) {
      if (required)
        return unauthorized('This endpoint needs an API key: Authorization: Bearer <key>');
      c.set('principal', undefined);
      return next();
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) return unauthorized('The Authorization header must be "Bearer <key>"');
    const presented = digest(match[1]);
    let found: Principal | undefined;
    for (const candidate of keys) {
      if (timingSafeEqual(presented, candidate.digest) && !found) found = candidate.principal;
    }
    if (!found) return unauthorized('The API key is not valid');
    c.set('principal', found);
    return next();
  };
}

/**
 * Lets the request through only for a principal with one of `roles` (401 without one, 403 otherwise).
 *
 * @example
 * app.post('/v1/policies', requireRole('platform-admin'), handler);
 */
export function requireRole(...roles: string[]): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal)
      return unauthorized('This endpoint needs an API key: Authorization: Bearer <key>');
    if (!roles.includes(principal.role)) {
      return problemResponse({
        status: 403,
        title: 'Forbidden',
        detail: `This endpoint needs the role ${roles.join(' or ')}; the key has role ${principal.role}`,
      });
    }
    return next();
  };
}
