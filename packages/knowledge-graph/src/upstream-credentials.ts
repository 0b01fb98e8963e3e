import type { SourceConfig } from './source-config';

/** The headers each source's upstream gets, by source id (sources without credentials are absent). */
export type UpstreamHeaders = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** A configured credential whose environment variable is unset or unusable. */
export interface UpstreamCredentialIssue {
  /** Where it is configured, e.g. `sources[2].upstreamAuth.bearer.tokenFromEnv`. */
  key: string;
  /** Names the variable, never its value. */
  message: string;
}

/** Result of {@link resolveUpstreamHeaders}. */
export type ResolvedUpstreamHeaders =
  | { success: true; headers: UpstreamHeaders }
  | { success: false; issues: UpstreamCredentialIssue[] };

/**
 * Reads the secrets named in each source's `upstreamAuth` from `env` and builds the headers sent
 * upstream (`Authorization: Basic …` / `Bearer …`, custom headers). Every unset, empty or
 * multi-line variable is reported at once, so that start-up can stop with all of them named.
 *
 * @example
 * const resolved = resolveUpstreamHeaders(config.sources, process.env);
 * if (!resolved.success) throw new Error(resolved.issues.map((i) => `${i.key}: ${i.message}`).join('\n'));
 */
export function resolveUpstreamHeaders(
  sources: readonly SourceConfig[],
  env: Record<string, string | undefined>,
): ResolvedUpstreamHeaders {
  const issues: UpstreamCredentialIssue[] = [];
  const headers = new Map<string, Record<string, string>>();
  sources.forEach((source, index) => {
    const auth = source.upstreamAuth;
    if (!auth) return;
    const at = `sources[${index}].upstreamAuth`;
    const read = (name: string, key: string): string => {
      const value = env[name];
      if (value === undefined || value === '') {
        issues.push({ key, message: `environment variable ${name} is not set` });
        return '';
      }
      // A line break would split the header (fetch refuses it on every call).
      if (/[\r\n\0]/.test(value)) {
        issues.push({ key, message: `environment variable ${name} holds a line break` });
        return '';
      }
      return value;
    };
    const sent: Record<string, string> = {};
    if (auth.basic) {
      const user =
        auth.basic.username ??
        read(auth.basic.usernameFromEnv ?? '', `${at}.basic.usernameFromEnv`);
      const password = read(auth.basic.passwordFromEnv, `${at}.basic.passwordFromEnv`);
      sent.authorization = `Basic ${base64Utf8(`${user}:${password}`)}`;
    }
    if (auth.bearer) {
      sent.authorization = `Bearer ${read(auth.bearer.tokenFromEnv, `${at}.bearer.tokenFromEnv`)}`;
    }
    for (const [name, { fromEnv }] of Object.entries(auth.headers ?? {})) {
      sent[name.toLowerCase()] = read(fromEnv, `${at}.headers.${name}.fromEnv`);
    }
    headers.set(source.id, sent);
  });
  return issues.length > 0 ? { success: false, issues } : { success: true, headers };
}

// RFC 7617: user-id and password as UTF-8, then base64 (no Buffer: this entry runs anywhere).
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
