import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_EXPANDED_BYTES } from '@dcg/contract-schema';
import {
  integerSetting,
  type ResolvedApiKey as ResolvedKey,
  serviceConfigSections,
} from '@dcg/http-kit';
import { EmbeddingsSearchConfigSchema } from '@dcg/marketplace-search';
import { z } from 'zod';

/** Roles of API keys: what each may do is listed in the README. */
export const RoleSchema = z.enum(['platform-admin', 'coordinator', 'guardian', 'reader']);
/** A role of an API key. */
export type Role = z.infer<typeof RoleSchema>;

const ApiKeySchema = z
  .strictObject({
    name: z.string().min(1),
    /** The secret itself, or… */
    key: z.string().min(16, 'API keys must have at least 16 characters').optional(),
    /** …the name of an environment variable that holds it (keeps secrets out of the file). */
    keyFromEnv: z.string().min(1).optional(),
    role: RoleSchema,
    /** Guardian keys: the passive policies it may submit results for (absent: any). */
    policies: z.array(z.string().min(1)).optional(),
  })
  .refine((k) => (k.key === undefined) !== (k.keyFromEnv === undefined), {
    message: 'give exactly one of key and keyFromEnv',
  });

/**
 * The governance-api configuration file (YAML or JSON, path in `DCG_CONFIG`). Every key is
 * documented in the README; unknown keys stop start-up with a message naming them.
 *
 * @example
 * GovernanceApiConfigSchema.parse({}).provisioning.pollIntervalMs; // 1000
 */
export const GovernanceApiConfigSchema = z.strictObject({
  auth: z
    .strictObject({
      apiKeys: z.array(ApiKeySchema).default([]),
      /** Print a random platform-admin key at start-up when no key is configured. */
      developmentKey: z.boolean().default(true),
    })
    .default({ apiKeys: [], developmentKey: true }),
  storage: z
    .strictObject({
      sqlite: z
        .strictObject({
          /** Database file; default `<DCG_DATA_DIR>/governance.db`. */
          file: z.string().min(1).optional(),
          /** NORMAL: survives kill -9 of the process; FULL: also power loss (one fsync per commit). */
          synchronous: z.enum(['FULL', 'NORMAL']).default('NORMAL'),
        })
        .default({ synchronous: 'NORMAL' }),
      postgres: z
        .strictObject({
          /** Connection string; `DATABASE_URL` overrides it. Set: PostgreSQL is used. */
          url: z.string().min(1).optional(),
          schema: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a plain SQL identifier')
            .default('public'),
          maxConnections: integerSetting(1, 200, 10),
        })
        .default({ schema: 'public', maxConnections: 10 }),
    })
    .default({
      sqlite: { synchronous: 'NORMAL' },
      postgres: { schema: 'public', maxConnections: 10 },
    }),
  provisioning: z
    .strictObject({
      pollIntervalMs: integerSetting(1, 60_000, 1000),
      pollTimeoutMs: integerSetting(1, 86_400_000, 600_000),
      requestTimeoutMs: integerSetting(1, 600_000, 30_000),
      /** Largest tech adapter answer read; a longer one fails the task. */
      maxResponseBytes: integerSetting(1024, 256 * 1024 * 1024, 4 * 1024 * 1024),
      /** `refuse`: no redirect is followed; `same-origin`: up to 5 on the adapter's own origin. */
      redirects: z.enum(['refuse', 'same-origin']).default('refuse'),
      /**
       * Lease of this instance on the plans it runs, renewed every third of it: when it lapses
       * (the instance died), another instance on the same database marks its plans failed.
       */
      leaseMs: integerSetting(300, 3_600_000, 30_000),
    })
    .default({
      pollIntervalMs: 1000,
      pollTimeoutMs: 600_000,
      requestTimeoutMs: 30_000,
      maxResponseBytes: 4 * 1024 * 1024,
      redirects: 'refuse',
      leaseMs: 30_000,
    }),
  evaluationResults: z
    .strictObject({
      /**
       * Accept results for a contract that no guardian deployed in the environment guards with
       * the policy (platforms that push results before they deploy guardians). Off: 409.
       */
      acceptUnguarded: z.boolean().default(false),
    })
    .default({ acceptUnguarded: false }),
  limits: z
    .strictObject({
      /** Largest accepted request body. */
      maxBodyBytes: integerSetting(1024, 256 * 1024 * 1024, 5 * 1024 * 1024),
      /** Deepest nesting of objects and arrays in a JSON body or YAML descriptor; deeper: 422. */
      maxDepth: integerSetting(8, 256, DEFAULT_MAX_DEPTH),
      /** Largest size of a YAML descriptor once its aliases are expanded; larger: 413. */
      maxExpandedBytes: integerSetting(1024, 1024 * 1024 * 1024, DEFAULT_MAX_EXPANDED_BYTES),
      /** Largest JSON of one list page; a page is cut short (with `nextOffset`) to stay below. */
      maxPageBytes: integerSetting(1024, 256 * 1024 * 1024, 8 * 1024 * 1024),
      /** Open event streams (`GET /v1/marketplace/events`) per API key; one more is 429. */
      maxEventStreamsPerKey: integerSetting(1, 10_000, 5),
    })
    .default({
      maxBodyBytes: 5 * 1024 * 1024,
      maxDepth: DEFAULT_MAX_DEPTH,
      maxExpandedBytes: DEFAULT_MAX_EXPANDED_BYTES,
      maxPageBytes: 8 * 1024 * 1024,
      maxEventStreamsPerKey: 5,
    }),
  /** server, admission, rateLimit, metrics (see `@dcg/http-kit`); `/metrics` takes any API key. */
  ...serviceConfigSections,
  /** Marketplace embeddings and hybrid search (spec B1); see the README. */
  embeddingsSearch: EmbeddingsSearchConfigSchema.prefault({}),
});
/** The validated configuration. */
export type GovernanceApiConfig = z.output<typeof GovernanceApiConfigSchema>;

/** An API key of governance-api with its secret resolved. */
export type ResolvedApiKey = ResolvedKey<GovernanceApiConfig['auth']['apiKeys'][number]>;
