import {
  HttpServerConfigSchema,
  RateLimitConfigSchema,
  type ResolvedApiKey as ResolvedKey,
} from '@dcg/http-kit';
import { SearchConfigSchema, SourcesConfigSchema } from '@dcg/knowledge-graph';
import { Cron } from 'croner';
import { z } from 'zod';

const MiB = 1024 * 1024;

const ApiKeySchema = z
  .object({
    name: z.string().min(1),
    /** The secret itself, or… */
    key: z.string().min(16, 'API keys must have at least 16 characters').optional(),
    /** …the name of an environment variable holding it (keeps secrets out of the file). */
    keyFromEnv: z.string().min(1).optional(),
    role: z.enum(['writer', 'reader']).default('writer'),
  })
  .strict()
  .refine((k) => (k.key === undefined) !== (k.keyFromEnv === undefined), {
    message: 'give exactly one of key and keyFromEnv',
  });

/**
 * The kg-api configuration file (YAML or JSON), every key documented in the README.
 *
 * @example
 * KgApiConfigSchema.parse({ sources: [] }).sparql.timeoutMs; // 10000
 */
export const KgApiConfigSchema = z
  .object({
    sources: SourcesConfigSchema.default([]),
    search: SearchConfigSchema.default(() => SearchConfigSchema.parse({})),
    sparql: z
      .object({
        timeoutMs: z.number().int().min(1).max(600_000).default(10_000),
        maxRows: z.number().int().min(1).max(1_000_000).default(10_000),
      })
      .strict()
      .default({ timeoutMs: 10_000, maxRows: 10_000 }),
    passthrough: z
      .object({
        timeoutMs: z.number().int().min(1).max(600_000).default(10_000),
        maxResponseBytes: z
          .number()
          .int()
          .min(1024)
          .max(500 * MiB)
          .default(50 * MiB),
      })
      .strict()
      .default({ timeoutMs: 10_000, maxResponseBytes: 50 * MiB }),
    ingestion: z
      .object({
        // A document is parsed from one string, and V8 strings stop just short of 512 MiB.
        maxUploadBytes: z
          .number()
          .int()
          .min(1024)
          .max(500 * MiB, 'at most 524288000 (500 MiB): a document is parsed as one string')
          .default(256 * MiB),
        pullTimeoutMs: z.number().int().min(1).max(3_600_000).default(120_000),
      })
      .strict()
      .default({ maxUploadBytes: 256 * MiB, pullTimeoutMs: 120_000 }),
    cors: z
      .object({
        allowedOrigins: z
          .array(z.url({ protocol: /^https?$/ }).transform((u) => new URL(u).origin))
          .default([]),
      })
      .strict()
      .default({ allowedOrigins: [] }),
    auth: z
      .object({
        apiKeys: z.array(ApiKeySchema).default([]),
        readsRequireKey: z.boolean().default(false),
        /** Print a random writer key at start-up when no key is configured (else nobody could write). */
        developmentKey: z.boolean().default(true),
      })
      .strict()
      .default({ apiKeys: [], readsRequireKey: false, developmentKey: true }),
    /** HTTP server timeouts, connection caps and the shutdown deadline (see `@dcg/http-kit`). */
    server: HttpServerConfigSchema.default(() => HttpServerConfigSchema.parse({})),
    /** Per-client rate limits (see `@dcg/http-kit`): what keeps open reads safe. */
    rateLimit: RateLimitConfigSchema.default(() => RateLimitConfigSchema.parse({})),
  })
  .strict()
  .superRefine((config, ctx) => {
    config.sources.forEach((source, index) => {
      const schedule = source.modes.ingestion.schedule;
      if (schedule === undefined) return;
      try {
        new Cron(schedule, { paused: true }).stop();
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          path: ['sources', index, 'modes', 'ingestion', 'schedule'],
          message: `not a valid cron expression: ${(error as Error).message}`,
        });
      }
    });
  });

/** Validated kg-api configuration. */
export type KgApiConfig = z.output<typeof KgApiConfigSchema>;

/** An API key of kg-api with its secret resolved. */
export type ResolvedApiKey = ResolvedKey<KgApiConfig['auth']['apiKeys'][number]>;
