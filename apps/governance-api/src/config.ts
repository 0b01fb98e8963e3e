import type { ResolvedApiKey as ResolvedKey } from '@dcg/http-kit';
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
          maxConnections: z.number().int().min(1).max(200).default(10),
        })
        .default({ schema: 'public', maxConnections: 10 }),
    })
    .default({
      sqlite: { synchronous: 'NORMAL' },
      postgres: { schema: 'public', maxConnections: 10 },
    }),
  provisioning: z
    .strictObject({
      pollIntervalMs: z.number().int().min(1).max(60_000).default(1000),
      pollTimeoutMs: z.number().int().min(1).max(86_400_000).default(600_000),
      requestTimeoutMs: z.number().int().min(1).max(600_000).default(30_000),
    })
    .default({ pollIntervalMs: 1000, pollTimeoutMs: 600_000, requestTimeoutMs: 30_000 }),
  limits: z
    .strictObject({
      /** Largest accepted request body. */
      maxBodyBytes: z
        .number()
        .int()
        .min(1024)
        .max(256 * 1024 * 1024)
        .default(5 * 1024 * 1024),
    })
    .default({ maxBodyBytes: 5 * 1024 * 1024 }),
  /** Marketplace embeddings and hybrid search (spec B1); see the README. */
  embeddingsSearch: EmbeddingsSearchConfigSchema.prefault({}),
});
/** The validated configuration. */
export type GovernanceApiConfig = z.output<typeof GovernanceApiConfigSchema>;

/** An API key of governance-api with its secret resolved. */
export type ResolvedApiKey = ResolvedKey<GovernanceApiConfig['auth']['apiKeys'][number]>;
