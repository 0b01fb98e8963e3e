/** NODE_ENV values that mean development (compared lower-case); unset or empty is development too. */
const DEVELOPMENT_VALUES = new Set(['development', 'dev', 'test']);

/**
 * Whether a process runs in production, read from `NODE_ENV` the same way in every app: any value
 * other than an explicit development value (`development`, `dev`, `test`, any case) is
 * production, so `Production`, `prod` or `staging` never fall back to development conveniences
 * (a printed admin key, demo credentials, loopback fetches). An unset or empty NODE_ENV is
 * development, as in Node's own tooling.
 *
 * @example
 * isProduction({ NODE_ENV: 'Production' }); // true
 * isProduction({}); // false
 */
export function isProduction(env: Record<string, string | undefined>): boolean {
  const value = env.NODE_ENV?.trim().toLowerCase();
  if (value === undefined || value === '') return false;
  return !DEVELOPMENT_VALUES.has(value);
}
