import { bearerAuth, ProblemError, requireRole } from '@dcg/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { ResolvedApiKey, Role } from './config';

/**
 * Middlewares guarding the API: `authenticate` needs any valid key; `role(...)` needs one of the
 * roles. `platform-admin` may do everything.
 *
 * @example
 * const guards = authGuards(keys);
 * app.post('/v1/provisioning/deploy', guards.authenticate, guards.role('coordinator'), handler);
 */
export interface Guards {
  authenticate: MiddlewareHandler;
  role: (...roles: Role[]) => MiddlewareHandler;
}

/**
 * Builds the guards from the resolved keys (compared in constant time by `@dcg/http-kit`).
 *
 * @example
 * const guards = authGuards([{ name: 'ops', key: 'a-long-secret-value', role: 'platform-admin' }]);
 */
export function authGuards(keys: readonly ResolvedApiKey[]): Guards {
  const authenticate = bearerAuth({
    keys: keys.map((k) => ({
      key: k.key,
      role: k.role,
      name: k.name,
      ...(k.policies ? { policies: k.policies } : {}),
    })),
  }) as unknown as MiddlewareHandler;
  return {
    authenticate,
    role: (...roles) => requireRole('platform-admin', ...roles) as unknown as MiddlewareHandler,
  };
}

/**
 * Guardian keys may be limited to some policies: refuses (403) a submission for another one.
 *
 * @example
 * assertPolicyAllowed(c.get('principal'), policyId);
 */
export function assertPolicyAllowed(
  principal: { role: string; policies?: unknown } | undefined,
  policyId: string,
): void {
  if (principal?.role !== 'guardian' || !Array.isArray(principal.policies)) return;
  if (!principal.policies.includes(policyId)) {
    throw new ProblemError({
      status: 403,
      title: 'Forbidden',
      detail: `This guardian key may not submit results for policy "${policyId}"`,
    });
  }
}
