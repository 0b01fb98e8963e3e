import {
  integerSetting,
  type ResolvedApiKey as ResolvedKey,
  serviceConfigSections,
} from '@dcg/http-kit';
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_XML_DEPTH,
  SearchConfigSchema,
  SourcesConfigSchema,
} from '@dcg/knowledge-graph';
import { DEFAULT_QUERY_LIMITS } from '@dcg/sparql-subset';
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
    /**
     * A service that calls for its users (mcp-server): it may name the end user of a request in
     * `X-Dcg-End-User`, and each end user then has a rate limit of its own under this key.
     */
    endUsers: z.boolean().default(false),
  })
  .strict()
  .refine((k) => (k.key === undefined) !== (k.keyFromEnv === undefined), {
    message: 'give exactly one of key and keyFromEnv',
  });

const SparqlConfigSchema = z
  .object({
    /** Deadline of a query from the moment its text is read: queueing, parsing and evaluation. */
    timeoutMs: integerSetting(1, 600_000, 10_000),
    maxRows: integerSetting(1, 1_000_000, 10_000),
    /** Queries evaluated at once; more wait in the queue. */
    maxConcurrent: integerSetting(1, 1024, 2),
    /** Queries waiting for a turn; more are refused with 503 and Retry-After. */
    maxQueued: integerSetting(0, 100_000, 32),
    /** Limits checked on the text before it is parsed (see @dcg/sparql-subset). */
    maxQueryLength: integerSetting(64, 1024 * 1024, DEFAULT_QUERY_LIMITS.maxLength),
    maxNesting: integerSetting(1, 10_000, DEFAULT_QUERY_LIMITS.maxNesting),
    maxUnions: integerSetting(1, 100_000, DEFAULT_QUERY_LIMITS.maxUnions),
    maxOptionals: integerSetting(1, 100_000, DEFAULT_QUERY_LIMITS.maxOptionals),
    /** Longest synchronous stretch of a part of a query that cannot yield (EXISTS in an ORDER BY key). */
    maxBlockMs: integerSetting(1, 600_000, 200),
  })
  .strict();

/**
 * The kg-api configuration file (YAML or JSON), every key documented in the README.
 *
 * @example
 * KgApiConfigSchema.parse({ sources: [] }).sparql.timeoutMs; // 10000
 */
export const KgApiConfigSchema = z
  .object({
    /**
     * The URL clients reach this kg-api at (behind a proxy: the proxy's), without a trailing
     * slash: the Graph Store names a source's graph `{publicUrl}/v1/sources/{id}/graph`. Absent:
     * the scheme and host of each request.
     */
    publicUrl: z
      .url({ protocol: /^https?$/ })
      .refine((u) => {
        const url = new URL(u);
        return !url.search && !url.hash && !url.username && !url.password && !u.includes('?');
      }, 'a URL without credentials, query or fragment')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    sources: SourcesConfigSchema.default([]),
    search: SearchConfigSchema.default(() => SearchConfigSchema.parse({})),
    sparql: SparqlConfigSchema.default(() => SparqlConfigSchema.parse({})),
    passthrough: z
      .object({
        timeoutMs: integerSetting(1, 600_000, 10_000),
        maxResponseBytes: integerSetting(1024, 500 * MiB, 50 * MiB),
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
        pullTimeoutMs: integerSetting(1, 3_600_000, 120_000),
        /** Deepest nesting of JSON-LD arrays and objects (checked before parsing). */
        maxJsonLdDepth: integerSetting(1, 10_000, DEFAULT_MAX_JSON_DEPTH),
        /** Deepest nesting of RDF/XML elements (checked before parsing). */
        maxRdfXmlDepth: integerSetting(2, 10_000, DEFAULT_MAX_XML_DEPTH),
        /**
         * Heap limit of the worker thread that converts one document off the main thread
         * (JSON-LD, RDF/XML, Turtle-family with very long lines; the name is from when only
         * JSON-LD went there).
         */
        jsonLdWorkerHeapMb: integerSetting(16, 16_384, 1024),
        /** Longest conversion of one document in that worker (it is stopped then). */
        jsonLdTimeoutMs: integerSetting(100, 3_600_000, 120_000),
        /**
         * Memory one source's graph may take in the store (term dictionary and indexes), checked
         * while its triples arrive; a larger graph is refused with 413 and nothing changes.
         */
        maxGraphBytes: z
          .number()
          .int()
          .min(1 * MiB)
          .default(4096 * MiB),
      })
      .strict()
      .default({
        maxUploadBytes: 256 * MiB,
        pullTimeoutMs: 120_000,
        maxJsonLdDepth: DEFAULT_MAX_JSON_DEPTH,
        maxRdfXmlDepth: DEFAULT_MAX_XML_DEPTH,
        jsonLdWorkerHeapMb: 1024,
        jsonLdTimeoutMs: 120_000,
        maxGraphBytes: 4096 * MiB,
      }),
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
    /**
     * kg-api keeps its graphs in the data folder. PostgreSQL, when set, holds what several
     * instances behind one balancer must share: the ingested graphs (as binary snapshots) and
     * the rate limits.
     */
    storage: z
      .object({
        /**
         * How often (ms) an instance looks for graphs another instance sharing its storage
         * (PostgreSQL, or one data folder) saved, and loads them; 0: never.
         */
        graphRefreshMs: integerSetting(0, 3_600_000, 2_000),
        postgres: z
          .object({
            /** Connection string; `DATABASE_URL` overrides it. Set: the graphs and rate limits live there. */
            url: z.string().min(1).optional(),
            schema: z
              .string()
              .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case SQL identifier')
              .default('dcg_kg'),
            maxConnections: integerSetting(1, 100, 4),
          })
          .strict()
          .default({ schema: 'dcg_kg', maxConnections: 4 }),
      })
      .strict()
      .default({ graphRefreshMs: 2_000, postgres: { schema: 'dcg_kg', maxConnections: 4 } }),
    /**
     * server, admission, rateLimit, metrics (see `@dcg/http-kit`): the rate limits are what keeps
     * open reads safe; `/metrics` takes any API key.
     */
    ...serviceConfigSections,
  })
  .strict()
  .superRefine((config, ctx) => {
    config.sources.forEach((source, index) => {
      const schedule = source.modes.ingestion.schedule;
      if (schedule === undefined) return;
      if (!source.baseUrl) {
        // A schedule pulls `<baseUrl>/v1/graph/jsonld`: without a baseUrl it could never run.
        ctx.addIssue({
          code: 'custom',
          path: ['sources', index, 'modes', 'ingestion', 'schedule'],
          message: 'a schedule needs the source to have a baseUrl to pull from',
        });
      }
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
