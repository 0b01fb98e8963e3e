/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

// Compared after lower-casing and removing `-` and `_`: `X-Api-Key`, `api_key`, `apiKey` all match.
const SECRET_KEY =
  /(authorization|cookie|password|passwd|secret|token|apikey|credential|privatekey|connectionstring|databaseurl)/;
// `scheme://user:password@host`: the password part of a URL.
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s@]+@/gi;
const MAX_DEPTH = 8;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string')
    return value.includes('@') ? value.replace(URL_PASSWORD, `$1${REDACTED}@`) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Object]';
  seen.add(value);
  try {
    if (value instanceof Error) {
      const error: Record<string, unknown> = {
        message: redactValue(value.message, depth + 1, seen),
        stack: redactValue(value.stack, depth + 1, seen),
      };
      const code = (value as { code?: unknown }).code;
      if (code !== undefined) error.code = code;
      return error;
    }
    if (value instanceof Headers || value instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of value as Map<unknown, unknown>) {
        out[String(key)] = isSecretKey(String(key))
          ? REDACTED
          : redactValue(inner, depth + 1, seen);
      }
      return out;
    }
    if (value instanceof URL) return redactValue(value.href, depth + 1, seen);
    if (Array.isArray(value)) return value.map((inner) => redactValue(inner, depth + 1, seen));
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = isSecretKey(key) ? REDACTED : redactValue(inner, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * A copy of a value to log with its secrets replaced by `[REDACTED]`: the values of keys that name
 * a secret (`authorization`, `cookie`, `password`, `secret`, `token`, `apiKey`/`x-api-key`,
 * `credential`, `privateKey`, `connectionString`, `databaseUrl`, in any case and with `-`/`_`), at
 * any depth, in plain objects, arrays, `Headers` and `Map`s, and the password of any
 * `scheme://user:password@host` URL in a string. Errors become their message, stack and code.
 *
 * @example
 * redactSecrets({ headers: { Authorization: 'Bearer abc' } }); // { headers: { Authorization: '[REDACTED]' } }
 */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, 0, new WeakSet());
}
