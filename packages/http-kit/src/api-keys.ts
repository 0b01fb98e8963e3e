import { ConfigError } from './config';
import { isProduction } from './runtime-mode';

/** An API key as configured: the secret itself, or the environment variable that holds it. */
export interface ApiKeyEntry {
  name: string;
  key?: string | undefined;
  keyFromEnv?: string | undefined;
  role: string;
}

/** A configured key with its secret resolved (everything else of the entry kept). */
export type ResolvedApiKey<E extends ApiKeyEntry> = Omit<E, 'key' | 'keyFromEnv'> & { key: string };

/** Shortest secret accepted: anything shorter is guessable. */
export const MIN_API_KEY_LENGTH = 16;

/**
 * Resolves `keyFromEnv` references (a missing or short variable is a `ConfigError` naming the key),
 * and, when no key is configured and `developmentRole` is given, makes one random key with that
 * role so that a fresh installation can be used at all (the caller prints it at start-up).
 * In production (`production: true`, by default {@link isProduction} of `NODE_ENV`) no development key exists: with
 * no key configured it throws a `ConfigError` that says how to configure one.
 *
 * @example
 * const { keys, developmentKey } = resolveApiKeys(config.auth.apiKeys, {
 *   env: process.env,
 *   developmentRole: config.auth.developmentKey ? 'platform-admin' : undefined,
 * });
 */
export function resolveApiKeys<E extends ApiKeyEntry>(
  entries: readonly E[],
  options: {
    env: Record<string, string | undefined>;
    developmentRole?: E['role'] | undefined;
    /**
     * The development key to use instead of a random one (at least {@link MIN_API_KEY_LENGTH}
     * characters), so that a launcher can hand the same key to another process (`pnpm start`).
     */
    developmentKey?: string | undefined;
    /** No development key; no key at all is an error. Default: {@link isProduction}`(env)`. */
    production?: boolean | undefined;
    /** The role shown in the error's example configuration. */
    exampleRole?: E['role'] | undefined;
  },
): { keys: ResolvedApiKey<E>[]; developmentKey?: string } {
  const keys = entries.map((entry, index) => {
    const { key: literal, keyFromEnv, ...rest } = entry;
    const key = literal ?? (keyFromEnv ? options.env[keyFromEnv] : undefined);
    if (key === undefined || key.length < MIN_API_KEY_LENGTH) {
      const where = `auth.apiKeys[${index}].keyFromEnv`;
      const message = `environment variable ${keyFromEnv} (key "${entry.name}") is unset or shorter than ${MIN_API_KEY_LENGTH} characters`;
      throw new ConfigError(`Invalid configuration:\n  - ${where}: ${message}`, [
        { key: where, message },
      ]);
    }
    return { ...rest, key } as ResolvedApiKey<E>;
  });
  if (keys.length === 0 && (options.production ?? isProduction(options.env))) {
    const mode = options.env.NODE_ENV ? `NODE_ENV=${options.env.NODE_ENV}` : 'production mode';
    const message = `no API key is configured, and in production (${mode}: any NODE_ENV but development, dev or test) there is no development key`;
    const role = options.exampleRole ?? options.developmentRole ?? 'reader';
    throw new ConfigError(
      `Invalid configuration:\n  - auth.apiKeys: ${message}. Configure keys in the configuration file (DCG_CONFIG), for example:\n` +
        `      auth:\n        apiKeys:\n          - { name: ops, keyFromEnv: DCG_OPS_KEY, role: ${role} }\n` +
        `    and set the environment variable DCG_OPS_KEY to a secret of at least ${MIN_API_KEY_LENGTH} characters.`,
      [{ key: 'auth.apiKeys', message }],
    );
  }
  if (keys.length > 0 || options.developmentRole === undefined) return { keys };
  if (options.developmentKey !== undefined && options.developmentKey.length < MIN_API_KEY_LENGTH) {
    const message = `the development key given is shorter than ${MIN_API_KEY_LENGTH} characters`;
    throw new ConfigError(`Invalid configuration:\n  - auth.developmentKey: ${message}`, [
      { key: 'auth.developmentKey', message },
    ]);
  }
  const developmentKey =
    options.developmentKey ?? `dcg-dev-${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
  const development = { name: 'development', role: options.developmentRole, key: developmentKey };
  return { keys: [development as unknown as ResolvedApiKey<E>], developmentKey };
}
