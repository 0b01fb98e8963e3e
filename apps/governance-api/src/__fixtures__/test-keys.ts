/** API keys used by the governance-api tests. */
export const KEYS = {
  admin: 'admin-key-0123456789abcdef',
  coordinator: 'coordinator-key-0123456789',
  guardian: 'guardian-key-0123456789abc',
  limitedGuardian: 'limited-guardian-key-012345',
  reader: 'reader-key-0123456789abcdef',
} as const;

/** A configuration with one key per role (the limited guardian may only submit for `only-this`). */
export const testConfig = {
  auth: {
    apiKeys: [
      { name: 'admin', key: KEYS.admin, role: 'platform-admin' as const },
      { name: 'coordinator', key: KEYS.coordinator, role: 'coordinator' as const },
      { name: 'guardian', key: KEYS.guardian, role: 'guardian' as const },
      {
        name: 'limited',
        key: KEYS.limitedGuardian,
        role: 'guardian' as const,
        policies: ['only-this'],
      },
      { name: 'reader', key: KEYS.reader, role: 'reader' as const },
    ],
  },
  provisioning: { pollIntervalMs: 20, pollTimeoutMs: 5000, requestTimeoutMs: 5000 },
  // Explicitly on: most tests post results for policies they create directly, without deploying
  // a guardian. The tests of the guard rule use `guardedConfig` (the default: off).
  evaluationResults: { acceptUnguarded: true },
};

/** {@link testConfig} with the default rule: results only where a deployed guardian guards. */
export const guardedConfig = { ...testConfig, evaluationResults: { acceptUnguarded: false } };

/** A JSON request with a bearer key. */
export function request(
  url: string,
  options: {
    key?: string;
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
}
