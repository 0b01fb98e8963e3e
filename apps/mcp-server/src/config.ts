import { integerSetting, serviceConfigSections } from '@dcg/http-kit';
import { z } from 'zod';

const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'must be an absolute http(s) URL',
  });

const secret = z
  .strictObject({
    key: z.string().min(16).optional(),
    keyFromEnv: z.string().min(1).optional(),
  })
  .refine((k) => !(k.key !== undefined && k.keyFromEnv !== undefined), {
    message: 'give at most one of key and keyFromEnv',
  });

/** Where a backend API (governance-api, kg-api) answers, with which key and how patiently. */
function backendSettings(defaultBaseUrl: string) {
  return z
    .strictObject({
      baseUrl: httpUrl.default(defaultBaseUrl),
      apiKey: secret.optional(),
      timeoutMs: integerSetting(100, 120_000, 10_000),
    })
    .default({ baseUrl: defaultBaseUrl, timeoutMs: 10_000 });
}

const Origin = z
  .string()
  .refine((value) => value === '*' || (URL.canParse(value) && new URL(value).origin === value), {
    message: 'must be an origin such as https://app.example.com (scheme, host, port; no path)',
  });

/** A user of the embedded login: a name and a scrypt hash made by `pnpm --filter @dcg/mcp-server hash-password`. */
const UserSchema = z.strictObject({
  username: z.string().min(1).max(200),
  passwordHash: z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/, {
    message: 'must be a scrypt hash made by hash-password (scrypt$N$r$p$salt$hash)',
  }),
  /** Scopes this user may grant (default: all). */
  scopes: z.array(z.string().min(1)).optional(),
});

/** A pre-registered OAuth client (preferred over metadata documents and dynamic registration). */
const ClientSchema = z.strictObject({
  client_id: z.string().min(1).max(500),
  client_name: z.string().max(200).optional(),
  /** Absent: a public client (PKCE only). */
  client_secret: z.string().min(32).optional(),
  redirect_uris: z.array(z.string().url()).min(1),
  application_type: z.enum(['web', 'native']).default('web'),
  scope: z.string().optional(),
});

/**
 * The mcp-server configuration (YAML or JSON, path in `DCG_CONFIG`). Every key is documented in
 * the README; unknown keys stop start-up with a message naming them.
 *
 * @example
 * McpServerConfigSchema.parse({}).limits.maxResultBytes; // 262144
 */
export const McpServerConfigSchema = z.strictObject({
  /** The URL clients use to reach this server (behind a proxy: the public one). Default: where it listens. */
  publicUrl: httpUrl.optional(),
  /** `apiKey`: a governance-api key (any role) to read policies and deployed descriptors. */
  governance: backendSettings('http://127.0.0.1:8080'),
  knowledgeGraph: backendSettings('http://127.0.0.1:8081'),
  limits: z
    .strictObject({
      maxResultBytes: integerSetting(1024, 16 * 1024 * 1024, 256 * 1024),
      defaultPageSize: integerSetting(1, 100, 10),
      maxPageSize: integerSetting(1, 100, 100),
      /** Resources per page of `resources/list` (the client follows `nextCursor`). */
      resourcesPageSize: integerSetting(1, 1000, 100),
      maxRequestBytes: integerSetting(1024, 64 * 1024 * 1024, 1024 * 1024),
    })
    .default({
      maxResultBytes: 256 * 1024,
      defaultPageSize: 10,
      maxPageSize: 100,
      resourcesPageSize: 100,
      maxRequestBytes: 1024 * 1024,
    }),
  cache: z
    .strictObject({
      staticListsTtlMs: z.number().int().min(0).default(3_600_000),
      marketplaceDataTtlMs: z.number().int().min(0).default(0),
    })
    .default({ staticListsTtlMs: 3_600_000, marketplaceDataTtlMs: 0 }),
  cors: z
    .strictObject({
      /** Origins allowed to call /mcp and the authentication APIs from a browser (a string or a list). */
      origin: z.union([Origin, z.array(Origin)]).default([]),
    })
    .default({ origin: [] }),
  oauth: z
    .strictObject({
      /** false: /mcp answers without a token (only for a server that is reachable by you alone). */
      enabled: z.boolean().default(true),
      /**
       * With `enabled: false` in production: the operator states that another layer (a gateway
       * that checks tokens) authorizes every request before it reaches this server. Without it,
       * production refuses to start with OAuth off. Logged as a warning at every start.
       */
      behindAuthorizationLayer: z.boolean().default(false),
      users: z.array(UserSchema).default([]),
      /** Sign people in at an upstream OpenID Connect provider instead of `users`. */
      upstream: z
        .strictObject({
          /** The provider's issuer; its discovery document is read at `<issuer>/.well-known/openid-configuration`. */
          issuer: httpUrl,
          clientId: z.string().min(1),
          /** Absent: a public client (PKCE only). */
          clientSecret: secret.optional(),
          scopes: z.array(z.string().min(1)).default(['openid', 'profile', 'email']),
          /** The ID token claim that names the account (default `preferred_username`, else `email`, else `sub`). */
          accountClaim: z.string().min(1).default('preferred_username'),
          timeoutMs: integerSetting(100, 60_000, 10_000),
        })
        .optional(),
      clients: z.array(ClientSchema).default([]),
      accessTokenTtlSeconds: integerSetting(30, 86_400, 600),
      refreshTokenTtlSeconds: integerSetting(60, 365 * 86_400, 14 * 86_400),
      /** Days a signing key signs before a new one is made; old keys keep verifying live tokens. */
      signingKeyRotationDays: integerSetting(1, 3650, 30),
      clientIdMetadataDocuments: z.boolean().default(true),
      /** How Client ID Metadata Documents are fetched (never redirects, never special-use addresses). */
      clientIdMetadataDocumentFetch: z
        .strictObject({
          timeoutMs: integerSetting(100, 30_000, 2500),
          /** Largest document accepted, in bytes. */
          maxBytes: integerSetting(512, 1_048_576, 5120),
          /** A PEM file of CA certificates trusted beside the system's (an internal CA). */
          trustedCaFile: z.string().min(1).optional(),
          /** Tests only: fetch documents from loopback addresses. Refused with NODE_ENV=production. */
          allowLoopbackForTests: z.boolean().default(false),
        })
        .default({ timeoutMs: 2500, maxBytes: 5120, allowLoopbackForTests: false }),
      dynamicRegistration: z
        .strictObject({
          enabled: z.boolean().default(true),
          /** Registrations per client IP address per minute. */
          perMinute: integerSetting(1, 10_000, 10),
          /** A registered client that gets no grant within this time is removed. */
          unusedClientTtlSeconds: z.number().int().min(60).default(86_400),
        })
        .default({ enabled: true, perMinute: 10, unusedClientTtlSeconds: 86_400 }),
    })
    .default({
      enabled: true,
      behindAuthorizationLayer: false,
      users: [],
      clients: [],
      accessTokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 14 * 86_400,
      signingKeyRotationDays: 30,
      clientIdMetadataDocuments: true,
      clientIdMetadataDocumentFetch: {
        timeoutMs: 2500,
        maxBytes: 5120,
        allowLoopbackForTests: false,
      },
      dynamicRegistration: { enabled: true, perMinute: 10, unusedClientTtlSeconds: 86_400 },
    }),
  storage: z
    .strictObject({
      sqlite: z.strictObject({ file: z.string().min(1).optional() }).default({}),
      postgres: z
        .strictObject({
          /** A connection string; set (or DATABASE_URL) to share the OAuth store among instances. */
          url: z.string().min(1).optional(),
          schema: z
            .string()
            .regex(/^[a-z_][a-z0-9_]{0,62}$/)
            .default('dcg_mcp'),
          maxConnections: integerSetting(1, 100, 10),
        })
        .default({ schema: 'dcg_mcp', maxConnections: 10 }),
    })
    .default({ sqlite: {}, postgres: { schema: 'dcg_mcp', maxConnections: 10 } }),
  /**
   * server, admission, rateLimit, metrics (see `@dcg/http-kit`). Rate limits count requests with a
   * valid access token per user (the token's subject), others per client address, failed token
   * checks much tighter; `/metrics` takes one of `metricsKeys`.
   */
  ...serviceConfigSections,
  /**
   * The keys a scraper presents on `/metrics` (`Authorization: Bearer <key>`). mcp-server has no
   * API keys of its own (its callers hold OAuth tokens, which are for `/mcp`): these are the
   * equivalent for monitoring. None with `metrics.requireKey` on: every scrape gets 401.
   */
  metricsKeys: z
    .array(
      z
        .strictObject({
          name: z.string().min(1).max(200),
          key: z.string().min(16).optional(),
          keyFromEnv: z.string().min(1).optional(),
        })
        .refine((k) => (k.key === undefined) !== (k.keyFromEnv === undefined), {
          message: 'give exactly one of key and keyFromEnv',
        }),
    )
    .default([]),
});

/** The validated mcp-server configuration. */
export type McpServerConfig = z.output<typeof McpServerConfigSchema>;

/** Resolves a `{ key }` or `{ keyFromEnv }` secret. */
export function resolveSecret(
  value: { key?: string | undefined; keyFromEnv?: string | undefined } | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (!value) return undefined;
  if (value.key !== undefined) return value.key;
  if (value.keyFromEnv !== undefined) {
    const found = env[value.keyFromEnv];
    if (!found) throw new Error(`the environment variable ${value.keyFromEnv} is not set`);
    return found;
  }
  return undefined;
}
