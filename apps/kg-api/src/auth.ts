import { bearerAuth, requireRole } from '@dcg/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { ResolvedApiKey } from './config';

/** The middlewares guarding reads and writes. */
export interface Guards {
  read: MiddlewareHandler;
  write: MiddlewareHandler;
}

/**
 * Builds the guards from configuration: writes need a `writer` key; reads are open unless
 * `auth.readsRequireKey`, then any configured key (reader or writer) will do. Keys are compared
 * in constant time by `@dcg/http-kit`.
 *
 * @example
 * const guards = authGuards(keys, { readsRequireKey: false });
 * app.put('/v1/sources/:id/graph', guards.write, handler);
 */
export function authGuards(
  keys: readonly ResolvedApiKey[],
  options: { readsRequireKey: boolean },
): Guards {
  const authenticate = bearerAuth({
    keys: keys.map((k) => ({ key: k.key, role: k.role, name: k.name })),
    required: true,
  }) as unknown as MiddlewareHandler;
  const writer = requireRole('writer') as unknown as MiddlewareHandler;
  const reader = requireRole('writer', 'reader') as unknown as MiddlewareHandler;
  const chain =
    (first: MiddlewareHandler, second: MiddlewareHandler): MiddlewareHandler =>
    (c, next) =>
      first(c, () => second(c, next) as Promise<void>);
  return {
    write: chain(authenticate, writer),
    read: options.readsRequireKey ? chain(authenticate, reader) : (_c, next) => next(),
  };
}
