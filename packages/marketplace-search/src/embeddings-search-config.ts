import { z } from 'zod';
import { MarketplaceSearchError } from './errors';
import { OPENAI_EMBEDDING_MODELS } from './http-embedding-provider';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const EndpointSchema = z
  .string()
  .max(2000)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (
          url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
        );
      } catch {
        return false;
      }
    },
    { message: 'a full HTTPS URL (plain HTTP only on loopback, for tests)' },
  );

const ApiVersionSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'an API version of the form YYYY-MM-DD')
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
      new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: 'an API version of the form YYYY-MM-DD, a real date',
    },
  );

/**
 * `embeddingsSearch.embeddingsModel` (spec B1): which provider makes the vectors. `apiKey` names
 * the secret variable that holds the key, as `${VARIABLE}` (default
 * `${EMBEDDERENGINE_SERVICE_TOKEN}`); the key itself never goes in the file. `provider: local`
 * (the default) needs no key and no network.
 *
 * @example
 * EmbeddingsModelConfigSchema.parse({ provider: 'azure_openai', apiVersion: '2024-10-21', instanceName: 'acme',
 *   deploymentName: 'emb', endpoint: 'https://acme.openai.azure.com' }).model; // 'text-embedding-3-large'
 */
export const EmbeddingsModelConfigSchema = z
  .strictObject({
    provider: z.enum(['local', 'azure_openai', 'openai_compatible']).default('local'),
    apiKey: z
      .string()
      .regex(
        /^\$\{[A-Za-z_][A-Za-z0-9_]{0,127}\}$/,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VARIABLE} reference syntax of the configuration
        'name the secret variable as ${VARIABLE} (the key itself never goes in the configuration)',
      )
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VARIABLE} reference syntax of the configuration
      .default('${EMBEDDERENGINE_SERVICE_TOKEN}'),
    apiVersion: ApiVersionSchema.optional(),
    instanceName: z.string().min(1).max(200).optional(),
    deploymentName: z.string().min(1).max(200).optional(),
    endpoint: EndpointSchema.optional(),
    model: z
      .enum(['text-embedding-3-large', 'text-embedding-3-small'])
      .default('text-embedding-3-large'),
    /** Shorter vectors than the model's own (text-embedding-3 models accept it). */
    dimensions: z.number().int().min(1).max(3072).optional(),
    batchSize: z.number().int().min(1).max(2048).default(256),
    timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    maxRetries: z.number().int().min(0).max(10).default(5),
    /**
     * Provider `local` only: the tokens of each text the model reads, 1–128 (default 64, the local
     * embedder's own). Its time per text grows with it; a change makes stored vectors stale.
     */
    maxTokens: z.number().int().min(1).max(128).default(64),
  })
  .superRefine((m, ctx) => {
    const need = (key: 'apiVersion' | 'instanceName' | 'deploymentName' | 'endpoint') => {
      if (m[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `required with provider ${m.provider}`,
        });
    };
    if (m.provider === 'azure_openai') {
      need('apiVersion');
      need('instanceName');
      need('deploymentName');
      need('endpoint');
    }
    if (m.provider === 'openai_compatible') need('endpoint');
    if (m.dimensions !== undefined && m.dimensions > OPENAI_EMBEDDING_MODELS[m.model]) {
      ctx.addIssue({
        code: 'custom',
        path: ['dimensions'],
        message: `at most ${OPENAI_EMBEDDING_MODELS[m.model]} for ${m.model}`,
      });
    }
  });
/** The validated `embeddingsModel`. */
export type EmbeddingsModelConfig = z.output<typeof EmbeddingsModelConfigSchema>;

/**
 * `embeddingsSearch`: whether the marketplace keeps embeddings (when false, search is lexical),
 * the model, and the background behaviour.
 *
 * @example
 * EmbeddingsSearchConfigSchema.parse({}).embeddingsModel.provider; // 'local'
 */
export const EmbeddingsSearchConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  embeddingsModel: EmbeddingsModelConfigSchema.default({
    provider: 'local',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VARIABLE} reference syntax of the configuration
    apiKey: '${EMBEDDERENGINE_SERVICE_TOKEN}',
    model: 'text-embedding-3-large',
    batchSize: 256,
    timeoutMs: 30_000,
    maxRetries: 5,
    maxTokens: 64,
  }),
  /**
   * Vector hits below this cosine similarity are left out of the ranking (a query about nothing
   * in the marketplace gets no hits by meaning). Default: the model's own (0.3 for the local
   * embedder; 0.2 for the text-embedding-3 models).
   */
  minSimilarity: z.number().min(-1).max(1).optional(),
  /**
   * How long a `createEmbeddings` job holds its environment without renewing (processes sharing
   * PostgreSQL run one job per environment; a dead process's job is taken over after this).
   */
  jobLeaseMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /** Wait before embedding pending instances again after a provider failure. */
  retryDelayMs: z.number().int().min(100).max(3_600_000).default(30_000),
  /** Longest wait for a query's embedding before the search answers lexically. */
  queryTimeoutMs: z.number().int().min(50).max(60_000).default(5000),
  /**
   * With PostgreSQL (several processes): how often each process re-reads the instances to index
   * deploys run by the others (0: never).
   */
  refreshIntervalMs: z.number().int().min(0).max(86_400_000).default(60_000),
});
/** The validated `embeddingsSearch`. */
export type EmbeddingsSearchConfig = z.output<typeof EmbeddingsSearchConfigSchema>;

/**
 * The API key from the secret variable that `apiKey` names. A missing or empty variable is an
 * `invalid_config` error naming the variable (never a value).
 *
 * @example
 * const key = resolveEmbeddingsApiKey(config.embeddingsModel, process.env);
 */
export function resolveEmbeddingsApiKey(
  model: EmbeddingsModelConfig,
  env: Record<string, string | undefined>,
): string {
  const variable = model.apiKey.slice(2, -1);
  const value = env[variable];
  if (value === undefined || value.trim() === '') {
    throw new MarketplaceSearchError(
      'invalid_config',
      `embeddingsSearch.embeddingsModel.apiKey: the secret variable ${variable} is ${value === undefined ? 'not set' : 'empty'} (provider ${model.provider} needs its key)`,
      { path: ['embeddingsSearch', 'embeddingsModel', 'apiKey'] },
    );
  }
  return value.trim();
}
